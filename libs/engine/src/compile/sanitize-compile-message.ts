/**
 * Compiler messages are shown to API callers, so they must never reveal the server's file system
 * or internals. Stack frames are dropped, absolute paths become their last segment, and long
 * messages are cut.
 */
export const MAX_COMPILE_MESSAGE_LENGTH = 500;

// A stack frame line ("    at foo (file:1:2)") or the isolate boundary marker.
const STACK_FRAME_LINE = /^\s*at\s.*$/;
// Absolute POSIX paths (at least two segments), file URLs and Windows drive paths.
// URLs ("https://host/a/b") are left alone: a path must not follow a word character, ':' or '/'.
const FILE_URL = /file:\/\/[^\s"'`<>()]*\/([^/\s"'`<>()]*)/g;
const ABSOLUTE_PATH = /(?:\b[A-Za-z]:\\(?:[^\\\s"'`<>:]+\\)*|(?<![\w:/.])\/(?:[^/\s"'`<>():,]+\/)+)([^/\\\s"'`<>():,]*)/g;

export function sanitizeCompileMessage(message: unknown): string {
  const text = typeof message === 'string' ? message : message instanceof Error ? message.message : String(message ?? '');
  const withoutStack = text
    .split(/\r?\n/)
    .filter((line) => !STACK_FRAME_LINE.test(line))
    .join('\n')
    .trim();
  // Keep the file name (useful: "template.mjml") but never the folders above it.
  const withoutPaths = withoutStack
    .replace(FILE_URL, (_match, lastSegment: string) => lastSegment)
    .replace(ABSOLUTE_PATH, (_match, lastSegment: string) => lastSegment);
  const collapsed = withoutPaths.replace(/[ \t]{2,}/g, ' ').trim();
  if (collapsed.length <= MAX_COMPILE_MESSAGE_LENGTH) return collapsed || 'Compilation failed';
  return `${collapsed.slice(0, MAX_COMPILE_MESSAGE_LENGTH - 1)}…`;
}
