import type IsolatedVm from 'isolated-vm';
import ivm from './isolated-vm';

export interface IsolateScript {
  code: string;
  filename: string;
}

/**
 * The trusted code every isolate of one kind starts with. Normally a V8 snapshot (a fresh isolate in
 * ~20 ms); the scripts are kept so an isolate can also be built by running them, which is slower but
 * needed under jest, whose process aborts when deserializing any isolated-vm snapshot (V8 check
 * "backing_store != nullptr"). Plain Node (workers, CLI, scripts/check-corpus.js) uses the snapshot.
 */
export interface IsolateImage {
  scripts: IsolateScript[];
  snapshot?: IsolatedVm.ExternalCopy<ArrayBuffer>;
}

export function snapshotsEnabled(): boolean {
  return process.env.JEST_WORKER_ID === undefined && process.env.MAILPROOF_SANDBOX_SNAPSHOTS !== 'off';
}

export function createIsolateImage(scripts: IsolateScript[]): IsolateImage {
  return snapshotsEnabled() ? { scripts, snapshot: ivm.Isolate.createSnapshot(scripts) } : { scripts };
}

export function releaseIsolateImage(image: IsolateImage): void {
  image.snapshot?.release();
}
