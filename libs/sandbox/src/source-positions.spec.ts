import { analyzeEmail } from '@mailproof/engine';
import { compileEmail, disposeCompilers } from './index';
import { takeSourceMarkers } from './source-markers';

afterAll(() => disposeCompilers());

/** The cssReport finding of `property` for the Word engine, as the worker builds it from a compiled template. */
async function wordEngineFinding(source: string, format: 'jsx' | 'mjml' | 'maizzle', property: string) {
  const compiled = await compileEmail(source, format);
  const analysis = analyzeEmail(compiled.html, { format, clients: ['outlook-windows-legacy'], sourcePositions: compiled.sourcePositions });
  return { compiled, finding: analysis.cssReport.find((finding) => finding.property === property) };
}

describe('findings in the author source', () => {
  it('jsx: a finding on an element points at the JSX element, its compiled position beside it', async () => {
    const source = `import { Html, Body, Section, Text } from '@react-email/components';

export default function Sale() {
  return (
    <Html lang="en">
      <Body>
        <Text>Intro</Text>
        <Section style={{ display: 'flex', gap: '8px' }}>
          <Text>Deal</Text>
        </Section>
      </Body>
    </Html>
  );
}
`;
    const { compiled, finding } = await wordEngineFinding(source, 'jsx', 'display:flex');
    expect(finding).toMatchObject({ line: 8, column: 9, compiledLine: 1 });
    expect(compiled.html).not.toContain('mailproof-src');
    // The compiled position is where display:flex sits in compiledHtml.
    expect(compiled.html.indexOf('display:flex')).toBeGreaterThan(finding!.compiledColumn! - 1);
  });

  it('mjml: a finding points at the MJML tag, or at the HTML element written inside it', async () => {
    const source = `<mjml>
  <mj-body>
    <mj-section>
      <mj-column>
        <mj-text>Plain</mj-text>
        <mj-text css-class="promo" container-background-color="#fff">
          <p style="display:flex">Flex inside</p>
        </mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;
    const { compiled, finding } = await wordEngineFinding(source, 'mjml', 'display:flex');
    // The <p> inside <mj-text> is the author's own element (line 7); MJML copies it as written.
    expect(finding).toMatchObject({ line: 7, column: 11, compiledLine: expect.any(Number) });
    // A property MJML renders for a component points at the component.
    const radius = await wordEngineFinding(source.replace('<mj-section>', '<mj-section border-radius="8px">'), 'mjml', 'border-radius');
    expect(radius.finding).toMatchObject({ line: 3, column: 5 });
    expect(compiled.html).toContain('class="promo"');
    expect(compiled.html).not.toContain('mailproof-src');
    expect(compiled.warnings).toEqual([]);
  });

  it('maizzle: a finding on an element points at the template element, front matter counted', async () => {
    const source = `---
title: Sale
---
<x-main>
  <p>Intro</p>
  <div style="display: flex;">
    <p>Deal</p>
  </div>
</x-main>`;
    const { compiled, finding } = await wordEngineFinding(source, 'maizzle', 'display:flex');
    expect(finding).toMatchObject({ line: 6, column: 3 });
    expect(finding!.compiledLine).not.toBe(6);
    expect(compiled.html).not.toContain('mailproof-src');
  });

  it('a finding on markup no source element produced keeps only its compiled position', async () => {
    // MJML writes its own <style> (media queries); nothing in the source is that element.
    const source = '<mjml><mj-body><mj-section><mj-column><mj-text>Hi</mj-text></mj-column></mj-section></mj-body></mjml>';
    const compiled = await compileEmail(source, 'mjml');
    const analysis = analyzeEmail(compiled.html, { format: 'mjml', sourcePositions: compiled.sourcePositions });
    const media = analysis.cssReport.find((finding) => finding.property === '@media' && finding.compiledLine !== undefined);
    expect(media).toBeDefined();
    expect(media).not.toHaveProperty('line');
  });
});

describe('takeSourceMarkers', () => {
  it('removes attribute and class markers and gives element ranges in the clean HTML', () => {
    const marked =
      '<div data-mailproof-src="3:5"><p class="a mailproof-src-4-7">x</p><!--[if mso]><table class="mailproof-src-4-7-outlook"><![endif]--><span class="mailproof-src-9-1">y</span></div>';
    const { html, sourcePositions } = takeSourceMarkers(marked);
    expect(html).toBe('<div><p class="a">x</p><!--[if mso]><table><![endif]--><span>y</span></div>');
    expect(sourcePositions).toEqual([
      { start: 0, end: html.length, line: 3, column: 5 },
      { start: 5, end: 23, line: 4, column: 7 },
      { start: html.indexOf('<span>'), end: html.indexOf('</div>'), line: 9, column: 1 },
    ]);
  });

  it('leaves HTML without markers untouched', () => {
    expect(takeSourceMarkers('<p class="mailproof">x</p>')).toEqual({ html: '<p class="mailproof">x</p>', sourcePositions: [] });
  });
});
