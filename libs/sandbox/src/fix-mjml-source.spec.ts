import { fixEmail } from '@mailproof/engine';
import { compileEmail, disposeCompilers } from './index';

afterAll(() => disposeCompilers());

/** The engine's fixEmail over a template compiled by the real MJML compiler, as the fix job runs it. */
async function fixMjml(source: string) {
  const compiled = await compileEmail(source, 'mjml');
  return { compiled, result: fixEmail(compiled.html, { format: 'mjml', templateSource: source, sourcePositions: compiled.sourcePositions }) };
}

function template(head: string, text: string): string {
  return `<mjml>
  <mj-head>
${head}
  </mj-head>
  <mj-body>
    <mj-section>
      <mj-column>
        ${text}
        <mj-text css-class="note">Note</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;
}

const APPLE_META = '    <mj-raw><meta name="x-apple-disable-message-reformatting"></mj-raw>';

describe('fixEmail on MJML: value fixes written into the MJML source', () => {
  it('writes a 3-digit hex in mj-style and a font stack in an mj-text attribute into the source, with its diff and source lines', async () => {
    const source = template(
      `${APPLE_META}\n    <mj-style>.note { color: #abc; }</mj-style>`,
      '<mj-text font-family="Helvetica, Arial" color="#333333">Order shipped</mj-text>',
    );
    const { result } = await fixMjml(source);
    expect(result.patched).toBe('source');
    expect(result.html).toBe(source.replace('#abc;', '#aabbcc;').replace('font-family="Helvetica, Arial"', 'font-family="Helvetica, Arial, sans-serif"'));
    expect(result.diff).toContain('--- email.mjml');
    expect(result.diff).toContain('+    <mj-style>.note { color: #aabbcc; }</mj-style>');
    expect(result.applied.map((fix) => [fix.rule, fix.line])).toEqual([
      ['six-digit-hex', 4],
      ['generic-font-family', 9],
    ]);
    expect(result.applied.map((fix) => fix.snippet?.language)).toEqual(['mjml', 'mjml']);
    expect(result.introduced).toEqual([]);
    // The patched template, compiled again, has nothing left to fix.
    const again = await fixMjml(result.html);
    expect(again.result.applied).toEqual([]);
    expect(again.result).toMatchObject({ patched: 'source', html: result.html, diff: '' });
  });

  it('answers the compiled HTML when a fix inserts markup the source has no place for (the Apple meta)', async () => {
    const source = template('    <mj-style>.note { color: #abc; }</mj-style>', '<mj-text color="#333333">Order shipped</mj-text>');
    const { compiled, result } = await fixMjml(source);
    expect(result.patched).toBe('compiled-html');
    expect(result.html).toContain('<meta name="x-apple-disable-message-reformatting">');
    expect(result.html).toContain('.note { color: #aabbcc; }');
    expect(result.html.startsWith(compiled.html.slice(0, 40))).toBe(true);
    expect(result.diff).toContain('--- compiled.html');
  });

  it('answers the compiled HTML when the value is written more than once where the fix would go', async () => {
    const source = template(
      `${APPLE_META}\n    <mj-style>.note { color: #abc; } .other { border-color: #abc; }</mj-style>`,
      '<mj-text color="#333333">Order shipped</mj-text>',
    );
    const { result } = await fixMjml(source);
    expect(result.applied.map((fix) => fix.rule)).toContain('six-digit-hex');
    expect(result.patched).toBe('compiled-html');
    expect(result.html).toContain('.note { color: #aabbcc; } .other { border-color: #aabbcc; }');
  });
});
