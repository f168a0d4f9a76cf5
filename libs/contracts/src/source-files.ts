/**
 * `files` beside `html` in POST /api/preview, POST /api/gate and the MCP tools: the email's local
 * imports, `{ "<path relative to the email>": "<source>" }`. The rules live in the engine's compile
 * module (pure, so the sandbox resolves with the same code); every transport validates with
 * `checkSourceFiles` (400 for shape, 413 for size) and passes the map on unchanged.
 */
export { SOURCE_FILES_LIMITS, checkSourceFiles, normalizeSourceFiles, normalizeSourcePath } from '@mailproof/engine/compile';
export type { SourceFiles, SourceFilesProblem } from '@mailproof/engine/compile';
