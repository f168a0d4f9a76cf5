import { CompileError, isCompileError } from './compile-error';
import { COMPILE_FORMATS, isCompileFormat } from './compile-format';

describe('CompileError', () => {
  it('carries message, format and 1-based position, and serializes without a stack', () => {
    const error = new CompileError({ message: 'Unexpected token', format: 'jsx', line: 3, column: 7 });
    expect(error).toBeInstanceOf(Error);
    expect(isCompileError(error)).toBe(true);
    expect(error.name).toBe('CompileError');
    expect(error.toJSON()).toEqual({ message: 'Unexpected token', format: 'jsx', line: 3, column: 7 });
    expect(JSON.stringify(error)).not.toContain('stack');
    expect(error.stack).toBe('CompileError: Unexpected token');
  });

  it('drops positions that are not positive integers', () => {
    const error = new CompileError({ message: 'x', format: 'mjml', line: 0, column: Number.NaN });
    expect(error.line).toBeUndefined();
    expect(error.column).toBeUndefined();
    expect(error.toJSON()).toEqual({ message: 'x', format: 'mjml' });
  });

  it('sanitizes its message', () => {
    const error = new CompileError({ message: "ENOENT: open '/srv/app/templates/x.mjml'\n    at Object.openSync (node:fs:1:1)", format: 'mjml' });
    expect(error.message).toBe("ENOENT: open 'x.mjml'");
  });
});

describe('compile formats', () => {
  it('knows exactly the five input formats', () => {
    expect(COMPILE_FORMATS).toEqual(['html', 'jsx', 'mjml', 'maizzle', 'eml']);
    expect(isCompileFormat('maizzle')).toBe(true);
    expect(isCompileFormat('markdown')).toBe(false);
    expect(isCompileFormat(undefined)).toBe(false);
  });
});
