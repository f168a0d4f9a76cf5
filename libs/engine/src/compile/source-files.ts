import { utf8Length } from '../parse/utf8-length';
/**
 * The files an email imports (JSX components and Tailwind config, MJML `mj-include`, Maizzle components
 * and layouts), sent beside the email as `files: { "<relative path>": "<source>" }`. Keys are POSIX
 * paths relative to the email's own folder (`ui/Button.tsx`, `../../tailwind.config.ts`); nothing outside
 * the map is ever read. Pure code: the API validates with it, the CLI collects with it, and the sandbox
 * (including the Maizzle isolate) resolves with it.
 */
export type SourceFiles = Record<string, string>;

export const SOURCE_FILES_LIMITS = {
  /** Files beside the email. */
  maxFiles: 100,
  /** Characters of one path. */
  maxPathLength: 300,
  /** `..` segments a path may start with (the email sits this deep in its project, at most). */
  maxParentSegments: 8,
  /** UTF-8 bytes of the email and all its files together: the API's 500 KB limit on html. */
  maxTotalBytes: 512_000,
} as const;

export interface SourceFilesProblem {
  /** 413 when the files are too large, 400 for anything else. */
  status: 400 | 413;
  message: string;
}

/**
 * `./a/../b.tsx` → `b.tsx`; `../ui/./Button` → `../ui/Button`. Null for anything that is not a plain
 * relative path: absolute paths, URLs, drive letters, backslashes, NUL and other control characters,
 * empty segments, or more leading `..` than allowed.
 */
export function normalizeSourcePath(path: string): string | null {
  if (typeof path !== 'string' || path.length === 0 || path.length > SOURCE_FILES_LIMITS.maxPathLength) return null;
  if (/[\u0000-\u001f\u007f\\]/.test(path) || path.startsWith('/') || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(path)) return null;
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length > 0 && segments[segments.length - 1] !== '..') segments.pop();
      else segments.push('..');
      continue;
    }
    segments.push(segment);
  }
  if (segments.length === 0 || segments[segments.length - 1] === '..') return null;
  if (segments.filter((segment) => segment === '..').length > SOURCE_FILES_LIMITS.maxParentSegments) return null;
  return segments.join('/');
}

/** The folder of a normalized path: `../ui/Button.tsx` → `../ui`, `email.tsx` → ``. */
export function sourceDirectory(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** `specifier` as seen from the folder `fromDirectory`, normalized; null when it is not a relative path. */
export function joinSourcePath(fromDirectory: string, specifier: string): string | null {
  return normalizeSourcePath(fromDirectory ? `${fromDirectory}/${specifier}` : specifier);
}

/**
 * Checks `files` as a request carries it (any JSON value). `otherBytes` is the email's own size, which
 * counts against the same total. An empty list means valid.
 */
export function checkSourceFiles(files: unknown, otherBytes = 0): SourceFilesProblem[] {
  if (files === undefined) return [];
  if (files === null || typeof files !== 'object' || Array.isArray(files)) {
    return [{ status: 400, message: 'files must be an object of "<relative path>": "<source>"' }];
  }
  const entries = Object.entries(files as Record<string, unknown>);
  const problems: SourceFilesProblem[] = [];
  if (entries.length > SOURCE_FILES_LIMITS.maxFiles) {
    problems.push({ status: 413, message: `files holds ${entries.length} files; the limit is ${SOURCE_FILES_LIMITS.maxFiles}` });
  }
  const seen = new Map<string, string>();
  let totalBytes = otherBytes;
  for (const [path, source] of entries) {
    const shown = JSON.stringify(path.length > 80 ? `${path.slice(0, 80)}…` : path);
    const normalized = normalizeSourcePath(path);
    if (normalized === null) {
      problems.push({
        status: 400,
        message: `files key ${shown} must be a relative path (no leading /, no \\, no URL, at most ${SOURCE_FILES_LIMITS.maxParentSegments} leading ..)`,
      });
    } else if (seen.has(normalized)) {
      problems.push({ status: 400, message: `files keys ${JSON.stringify(seen.get(normalized))} and ${shown} name the same file` });
    } else {
      seen.set(normalized, path);
    }
    if (typeof source !== 'string') {
      problems.push({ status: 400, message: `files[${shown}] must be a string (the file's source)` });
      continue;
    }
    totalBytes += utf8Length(source);
  }
  if (totalBytes > SOURCE_FILES_LIMITS.maxTotalBytes) {
    problems.push({ status: 413, message: `html and files are ${totalBytes} bytes together; the limit is ${SOURCE_FILES_LIMITS.maxTotalBytes}` });
  }
  return problems;
}

/** The map with normalized keys; call after checkSourceFiles found no problem. */
export function normalizeSourceFiles(files: SourceFiles | undefined): SourceFiles {
  // No prototype: a key such as `__proto__` stays a file name.
  const normalized: SourceFiles = Object.create(null) as SourceFiles;
  for (const [path, source] of Object.entries(files ?? {})) {
    const key = normalizeSourcePath(path);
    if (key !== null) normalized[key] = source;
  }
  return normalized;
}

export { utf8Length } from '../parse/utf8-length';

/**
 * The key of `specifier` imported from the folder `fromDirectory`, trying each suffix in order
 * (`''`, `.tsx`, `/index.tsx`, …); undefined when no file of the map matches.
 */
export function findSourceFile(files: SourceFiles, fromDirectory: string, specifier: string, suffixes: readonly string[] = ['']): string | undefined {
  for (const suffix of suffixes) {
    const key = joinSourcePath(fromDirectory, `${specifier}${suffix}`);
    if (key !== null && Object.prototype.hasOwnProperty.call(files, key)) return key;
  }
  return undefined;
}
