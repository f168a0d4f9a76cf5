/**
 * The only modules a JSX template may import. Everything else (relative files, Node built-ins, other
 * packages) is refused at transpile time and again by the `require` inside the isolate.
 * `react-email` is React Email 5's umbrella package; it exports the same components.
 */
export const REACT_EMAIL_PACKAGES = [
  'body',
  'button',
  'code-block',
  'code-inline',
  'column',
  'container',
  'font',
  'head',
  'heading',
  'hr',
  'html',
  'img',
  'link',
  'markdown',
  'preview',
  'row',
  'section',
  'tailwind',
  'text',
] as const;

/**
 * Bundled separately and evaluated only in isolates whose template uses them: they are large, and
 * Tailwind 4's closures do not survive V8 snapshotting (ReferenceError after deserialization).
 */
export const LAZY_REACT_EMAIL_PACKAGES: readonly string[] = ['tailwind', 'code-block', 'markdown'];

export const ALLOWED_JSX_IMPORTS: readonly string[] = [
  'react',
  'react/jsx-runtime',
  'react/jsx-dev-runtime',
  '@react-email/components',
  'react-email',
  ...REACT_EMAIL_PACKAGES.map((name) => `@react-email/${name}`),
];

export function isAllowedJsxImport(specifier: string): boolean {
  return ALLOWED_JSX_IMPORTS.includes(specifier);
}
