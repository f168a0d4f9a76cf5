import { CompileError, compileEmail, disposeCompilers } from './index';

afterAll(() => disposeCompilers());

describe('compileEmail', () => {
  it('returns html as is', async () => {
    const html = '<!doctype html><html><body><p style="color:red">Hi {{name}}</p></body></html>';
    await expect(compileEmail(html, 'html')).resolves.toEqual({ html, warnings: [] });
  });

  it('parses a message (eml) without a sandbox: its decoded HTML part, and the parsed message beside it', async () => {
    const html = '<p style="color:red">caf\u00e9</p>';
    const raw = `From: a@acme.example\r\nSubject: x\r\nContent-Type: text/html; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n<p style=3D"color:red">caf=E9</p>`;
    const compiled = await compileEmail(raw, 'eml');
    expect(compiled.html.trimEnd()).toBe(html);
    expect(compiled.message?.html.path).toBe('1');
    expect(compiled.message?.subject).toBe('x');
    await expect(compileEmail(html, 'eml')).rejects.toMatchObject({ name: 'CompileError', format: 'eml', reason: 'not_a_message' });
  });

  it('refuses sources over the size limit with a CompileError', async () => {
    const big = `<p>${'x'.repeat(512_001)}</p>`;
    await expect(compileEmail(big, 'html')).rejects.toMatchObject({ name: 'CompileError', format: 'html' });
    await expect(compileEmail(big, 'jsx')).rejects.toBeInstanceOf(CompileError);
  });

  it('refuses an unknown format with a CompileError', async () => {
    await expect(compileEmail('<p>x</p>', 'markdown' as never)).rejects.toBeInstanceOf(CompileError);
  });
});
