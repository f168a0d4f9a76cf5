import { MAX_COMPILE_MESSAGE_LENGTH, sanitizeCompileMessage } from './sanitize-compile-message';

describe('sanitizeCompileMessage', () => {
  it.each([
    ['Line 3 of /work/main/src/email.mjml (mj-text) — Attribute foo is illegal', 'Line 3 of email.mjml (mj-text) — Attribute foo is illegal'],
    ["ENOENT: no such file or directory, open '/etc/passwd'", "ENOENT: no such file or directory, open 'passwd'"],
    ['failed in C:\\Users\\build\\app\\email.tsx', 'failed in email.tsx'],
    ['see file:///home/runner/app/dist/x.js:3', 'see x.js:3'],
  ])('strips server folders from %j', (input, expected) => {
    expect(sanitizeCompileMessage(input)).toBe(expected);
  });

  it('keeps URLs, ratios and relative imports intact', () => {
    expect(sanitizeCompileMessage('img https://example.com/a/b/c.png at 1/2 width, import "../ui/Button"')).toBe(
      'img https://example.com/a/b/c.png at 1/2 width, import "../ui/Button"',
    );
  });

  it('drops stack frames', () => {
    const message = 'TypeError: x is not a function\n    at render (/app/node_modules/react/index.js:1:2)\n    at (<isolated-vm boundary>)';
    expect(sanitizeCompileMessage(message)).toBe('TypeError: x is not a function');
  });

  it('accepts errors and non-strings, and never returns an empty message', () => {
    expect(sanitizeCompileMessage(new Error('boom'))).toBe('boom');
    expect(sanitizeCompileMessage(undefined)).toBe('Compilation failed');
    expect(sanitizeCompileMessage('   ')).toBe('Compilation failed');
  });

  it('caps the length', () => {
    const result = sanitizeCompileMessage('x'.repeat(5000));
    expect(result.length).toBe(MAX_COMPILE_MESSAGE_LENGTH);
    expect(result.endsWith('…')).toBe(true);
  });
});
