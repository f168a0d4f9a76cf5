import type { SourceFiles } from '@mailproof/engine/compile';

/** Hard limits for compiling untrusted templates. Callers may lower them, never raise them. */
export const COMPILE_LIMITS = {
  /** Same bound as the API's 500 KB limit on html. */
  maxSourceBytes: 512_000,
  /** Per compile: isolate execution for jsx/maizzle, worker time for mjml/maizzle CSS. */
  maxTimeoutMs: 5_000,
  defaultTimeoutMs: 5_000,
  /** Heap of each per-request isolate. isolated-vm treats it as a guideline (hostile code may reach 2-3x). */
  maxMemoryMb: 128,
  defaultMemoryMb: 128,
  /** Heap of each compile worker thread (mjml, Tailwind, juice). */
  workerHeapMb: 256,
} as const;

export interface CompileOptions {
  /** Milliseconds, clamped to COMPILE_LIMITS.maxTimeoutMs. */
  timeoutMs?: number;
  /** Isolate heap in MB, clamped to COMPILE_LIMITS.maxMemoryMb. */
  memoryLimitMb?: number;
  /** jsx: props for the default export; defaults to the component's `PreviewProps`. JSON-serializable. */
  props?: Record<string, unknown>;
  /** mjml: 'soft' (default, as MJML's own CLI) returns validation problems as warnings; 'strict' makes the first a CompileError. */
  mjmlValidation?: 'strict' | 'soft';
  /**
   * The files the email imports, keyed by path relative to the email's folder (see source-files.ts).
   * Imports resolve only inside this map; nothing is read from disk. Counted with the source against maxSourceBytes.
   */
  files?: SourceFiles;
}

export interface ResolvedLimits {
  timeoutMs: number;
  memoryLimitMb: number;
}

export function resolveLimits(options: CompileOptions | undefined): ResolvedLimits {
  return {
    timeoutMs: clamp(options?.timeoutMs, 50, COMPILE_LIMITS.maxTimeoutMs, COMPILE_LIMITS.defaultTimeoutMs),
    memoryLimitMb: clamp(options?.memoryLimitMb, 16, COMPILE_LIMITS.maxMemoryMb, COMPILE_LIMITS.defaultMemoryMb),
  };
}

function clamp(value: number | undefined, min: number, max: number, fallback: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.floor(value)));
}
