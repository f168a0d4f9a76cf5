import type { SourceFiles, SourcePosition } from '@mailproof/engine/compile';

/** Messages between the host and a compile worker thread. Plain data only. */
export type CompileWorkerTask =
  | { kind: 'mjml'; source: string; validation: 'strict' | 'soft'; files?: SourceFiles }
  | { kind: 'maizzle-css'; html: string; config: MaizzleCssConfig }
  | { kind: 'warm' };

export interface MaizzleCssConfig {
  /** Tailwind theme extension taken from front matter `tailwind.theme.extend` (data only). */
  themeExtend?: Record<string, unknown>;
}

export interface CompileWorkerRequest {
  id: number;
  task: CompileWorkerTask;
}

export interface WorkerWarning {
  message: string;
  line?: number;
  column?: number;
}

export type CompileWorkerResponse =
  | { id: number; ok: true; html: string; warnings: WorkerWarning[]; sourcePositions?: SourcePosition[] }
  | { id: number; ok: false; message: string; line?: number; column?: number };
