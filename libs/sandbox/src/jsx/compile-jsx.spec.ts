import { fixture } from '../__fixtures__/fixtures';
import { CompileError, compileEmail, disposeCompilers } from '../index';

afterAll(() => disposeCompilers());

describe('jsx', () => {
  it('renders a React Email template with its PreviewProps, escaped, behind the XHTML doctype', async () => {
    const result = await compileEmail(fixture('welcome-email.tsx.txt'), 'jsx');
    expect(result.html.startsWith('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"')).toBe(true);
    expect(result.html).toContain('Hello Ada &lt;Lovelace&gt;');
    expect(result.html).toContain('href="https://mailproof.test/start"');
    expect(result.html).not.toContain('rel="preload"');
    expect(result.warnings).toEqual([]);
  });

  it('renders with caller-supplied props', async () => {
    const result = await compileEmail(fixture('welcome-email.tsx.txt'), 'jsx', { props: { name: 'Grace', ctaUrl: 'https://mailproof.test/go' } });
    expect(result.html).toContain('Hello Grace');
    expect(result.html).toContain('https://mailproof.test/go');
  });

  it('compiles <Tailwind> classes (imported from react-email) to inline styles', async () => {
    const result = await compileEmail(fixture('tailwind-email.tsx.txt'), 'jsx');
    expect(result.html).toMatch(/<p style="[^"]*color:rgb\(231,0,11\)/);
    expect(result.html).toMatch(/style="[^"]*padding:16px/);
    expect(result.html).not.toContain('class="');
  });

  it('reports syntax errors with line and column', async () => {
    const error = await compileEmail('export default function E() {\n  return <p>unclosed;\n}\n', 'jsx').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CompileError);
    expect(error).toMatchObject({ format: 'jsx', line: expect.any(Number), column: expect.any(Number) });
  });

  it.each([
    ['a relative file', "import theme from './theme';\nexport default () => <p>{theme}</p>;", 1],
    ['a Node built-in', "import fs from 'fs';\nexport default () => <p>{String(fs)}</p>;", 1],
    ['child_process via require', "const cp = require('child_process');\nexport default () => <p>{String(cp)}</p>;", 1],
    ['another package', "import axios from 'axios';\nexport default () => <p>{String(axios)}</p>;", 1],
  ])('refuses an import of %s at transpile time, with its line', async (_label, source, line) => {
    await expect(compileEmail(source, 'jsx')).rejects.toMatchObject({
      name: 'CompileError',
      line,
      message: expect.stringMatching(/is not allowed|is not among the files sent with the email/),
    });
  });

  it('reports a template without a default component', async () => {
    await expect(compileEmail('export const x = 1;', 'jsx')).rejects.toMatchObject({ message: expect.stringMatching(/default export/) });
  });

  it('reports runtime errors thrown while rendering', async () => {
    const source = "export default function E() { throw new RangeError('bad total'); }";
    await expect(compileEmail(source, 'jsx')).rejects.toMatchObject({ name: 'CompileError', message: 'RangeError: bad total' });
  });
});
