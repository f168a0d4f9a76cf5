import { CompileError, compileEmail, disposeCompilers } from './index';

afterAll(() => disposeCompilers());

describe('compileEmail', () => {
  it('returns html as is', async () => {
    const html = '<!doctype html><html><body><p style="color:red">Hi {{name}}</p></body></html>';
    await expect(compileEmail(html, 'html')).resolves.toEqual({ html, warnings: [] });
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
