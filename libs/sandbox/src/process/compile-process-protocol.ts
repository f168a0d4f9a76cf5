import type { CompileErrorDetails, CompileResult } from '@mailproof/engine/compile';
import type { CompileOptions } from '../compile-limits';
import type { CompiledFormat } from '../compile-in-process';

/** Messages between a host and its compile process (Node IPC, JSON). Plain data only. */
export type CompileProcessRequest =
  { id: number; kind: 'compile'; source: string; format: CompiledFormat; options?: CompileOptions } | { id: number; kind: 'warm' };

export type CompileProcessResponse = { id: number; ok: true; result: CompileResult } | { id: number; ok: false; error: CompileErrorDetails };

/** Sent once when the process has loaded its code and can take requests. */
export interface CompileProcessReady {
  ready: true;
}
