import { CompileError, compileEmail, disposeCompilers } from '../index';

afterAll(() => disposeCompilers());

const VALID_MJML = `<mjml>
  <mj-body>
    <mj-section>
      <mj-column>
        <mj-text font-size="18px" color="#1f2937">Order shipped</mj-text>
        <mj-button href="https://mailproof.test/track">Track it</mj-button>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;

const INVALID_MJML = `<mjml>
  <mj-body>
    <mj-section>
      <mj-column>
        <mj-text font-size="13">Not a unit</mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;

describe('mjml', () => {
  it('compiles valid MJML to responsive HTML', async () => {
    const result = await compileEmail(VALID_MJML, 'mjml');
    expect(result.html).toContain('<!doctype html>');
    expect(result.html).toContain('Order shipped');
    expect(result.html).toContain('https://mailproof.test/track');
    expect(result.warnings).toEqual([]);
  });

  it('turns validation errors into a CompileError with message and line when strict is asked for', async () => {
    const error = await compileEmail(INVALID_MJML, 'mjml', { mjmlValidation: 'strict' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CompileError);
    expect(error).toMatchObject({ format: 'mjml', line: 5 });
    expect((error as CompileError).message).toMatch(/font-size has invalid value/);
  });

  it("returns validation errors as warnings with their line (soft, the default, as in MJML's CLI)", async () => {
    const result = await compileEmail(INVALID_MJML, 'mjml');
    expect(result.html).toContain('Not a unit');
    expect(result.warnings).toEqual([expect.objectContaining({ line: 5, message: expect.stringMatching(/font-size/) })]);
  });

  it('reports malformed MJML as a CompileError', async () => {
    await expect(compileEmail('<mj-body><mj-text>no root</mj-text></mj-body>', 'mjml')).rejects.toMatchObject({
      name: 'CompileError',
      message: expect.stringMatching(/Malformed MJML/),
    });
  });

  it('never reads an mj-include from disk, even of /etc/passwd, and says so in a warning', async () => {
    const source = VALID_MJML.replace(
      '<mj-body>',
      '<mj-body>\n    <mj-include path="/etc/passwd" />\n    <mj-include path="../../../../etc/passwd" type="html" />',
    );
    const result = await compileEmail(source, 'mjml');
    expect(result.html).not.toMatch(/root:x:0:0|\/bin\/(ba)?sh/);
    expect(result.warnings.filter((w) => /mj-include/.test(w.message))).toHaveLength(2);
    expect(result.warnings[0].line).toBe(3);
  });

  it('never leaks the server working directory in messages', async () => {
    const error = (await compileEmail(INVALID_MJML, 'mjml', { mjmlValidation: 'strict' }).catch((e: unknown) => e)) as CompileError;
    const soft = await compileEmail(INVALID_MJML, 'mjml');
    for (const text of [error.message, ...soft.warnings.map((w) => w.message)]) {
      expect(text).not.toContain(process.cwd());
      expect(text).not.toMatch(/\/work\/|\/home\/|\/srv\//);
    }
  });
});
