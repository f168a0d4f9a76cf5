import { SOURCE_FILES_LIMITS, checkSourceFiles, findSourceFile, normalizeSourceFiles, normalizeSourcePath, utf8Length } from './source-files';

describe('source file paths', () => {
  it.each([
    ['ui/Button.tsx', 'ui/Button.tsx'],
    ['./ui/./Button.tsx', 'ui/Button.tsx'],
    ['../ui/Button.tsx', '../ui/Button.tsx'],
    ['a/../b.mjml', 'b.mjml'],
    ['../../tailwind.config.ts', '../../tailwind.config.ts'],
    ['a//b.html', 'a/b.html'],
  ])('normalizes %s to %s', (path, expected) => {
    expect(normalizeSourcePath(path)).toBe(expected);
  });

  it.each([
    '/etc/passwd',
    'C:/x.tsx',
    'https://x.test/a.tsx',
    'file:a',
    'a\\b.tsx',
    'a\u0000b',
    '',
    '.',
    'a/..',
    '..',
    `${'../'.repeat(9)}x.tsx`,
    'x'.repeat(301),
  ])('refuses %j', (path) => {
    expect(normalizeSourcePath(path)).toBeNull();
  });

  it('finds a file from a folder, trying suffixes in order', () => {
    const files = { '../ui/Button.tsx': 'a', '../ui/index.ts': 'b', 'partials/header.mjml': 'c' };
    expect(findSourceFile(files, '', '../ui/Button', ['', '.ts', '.tsx'])).toBe('../ui/Button.tsx');
    expect(findSourceFile(files, '../ui', './Button', ['', '.tsx'])).toBe('../ui/Button.tsx');
    expect(findSourceFile(files, '../x', '../ui', ['', '/index.ts'])).toBe('../ui/index.ts');
    expect(findSourceFile(files, '', './partials/header', ['', '.mjml'])).toBe('partials/header.mjml');
    expect(findSourceFile(files, '', '/etc/passwd', [''])).toBeUndefined();
    // Inherited object keys are not files.
    expect(findSourceFile(files, '', 'constructor', [''])).toBeUndefined();
  });
});

describe('checkSourceFiles', () => {
  it('accepts no files, an empty map and a valid map', () => {
    expect(checkSourceFiles(undefined)).toEqual([]);
    expect(checkSourceFiles({})).toEqual([]);
    expect(checkSourceFiles({ 'ui/Button.tsx': 'export const B = 1;' }, 100)).toEqual([]);
  });

  it.each([null, 'x', ['a'], 3])('refuses %j as a whole with a 400', (files) => {
    expect(checkSourceFiles(files)).toEqual([{ status: 400, message: expect.stringMatching(/files must be an object/) }]);
  });

  it('names each bad key, a non-string source and two keys for the same file (400)', () => {
    const problems = checkSourceFiles({ '/etc/passwd': 'x', 'a.tsx': 3, './b.tsx': 'x', 'b.tsx': 'y' });
    expect(problems).toEqual([
      { status: 400, message: expect.stringContaining('"/etc/passwd" must be a relative path') },
      { status: 400, message: 'files["a.tsx"] must be a string (the file\'s source)' },
      { status: 400, message: 'files keys "./b.tsx" and "b.tsx" name the same file' },
    ]);
  });

  it('counts the email and the files against one total, and caps the number of files (413)', () => {
    expect(checkSourceFiles({ 'a.html': 'x'.repeat(12_001) }, 500_000)).toEqual([
      { status: 413, message: 'html and files are 512001 bytes together; the limit is 512000' },
    ]);
    expect(checkSourceFiles({ 'a.html': 'x'.repeat(12_000) }, 500_000)).toEqual([]);
    const many = Object.fromEntries(Array.from({ length: SOURCE_FILES_LIMITS.maxFiles + 1 }, (_, i) => [`f${i}.tsx`, '']));
    expect(checkSourceFiles(many)).toEqual([
      { status: 413, message: `files holds ${SOURCE_FILES_LIMITS.maxFiles + 1} files; the limit is ${SOURCE_FILES_LIMITS.maxFiles}` },
    ]);
  });

  it('normalizes keys, keeping __proto__ a file name', () => {
    expect({ ...normalizeSourceFiles({ './a/../b.tsx': 'x' }) }).toEqual({ 'b.tsx': 'x' });
    const files = normalizeSourceFiles(JSON.parse('{"__proto__": "p", "a.tsx": "a"}'));
    expect(Object.keys(files).sort()).toEqual(['__proto__', 'a.tsx']);
    expect(findSourceFile(files, '', '__proto__')).toBe('__proto__');
  });

  it('counts UTF-8 bytes as Buffer does', () => {
    for (const text of ['abc', 'é', '€', '😀', 'a\ud800b', '\udc00']) expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'));
  });
});
