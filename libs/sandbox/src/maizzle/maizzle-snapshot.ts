import * as esbuild from 'esbuild';
import ivm from 'isolated-vm';
import path from 'node:path';
import { ISOLATE_PRELUDE_SOURCE } from '../isolate/isolate-prelude';

let snapshotPromise: Promise<ivm.ExternalCopy<ArrayBuffer>> | undefined;

/** The Maizzle template engine and htmlparser2, bundled for the isolate and snapshotted once per process. */
export function getMaizzleSnapshot(): Promise<ivm.ExternalCopy<ArrayBuffer>> {
  if (!snapshotPromise) {
    snapshotPromise = createMaizzleSnapshot().catch((error: unknown) => {
      snapshotPromise = undefined;
      throw error;
    });
  }
  return snapshotPromise;
}

export function releaseMaizzleSnapshot(): void {
  const pending = snapshotPromise;
  snapshotPromise = undefined;
  void pending?.then((snapshot) => snapshot.release()).catch(() => undefined);
}

async function createMaizzleSnapshot(): Promise<ivm.ExternalCopy<ArrayBuffer>> {
  // .ts under jest/ts-node, .js once compiled: esbuild bundles either.
  const extension = path.extname(__filename) === '.ts' ? '.ts' : '.js';
  const result = await esbuild.build({
    entryPoints: [path.join(__dirname, `maizzle-template-engine${extension}`)],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: false,
    logLevel: 'silent',
  });
  return ivm.Isolate.createSnapshot([
    { code: ISOLATE_PRELUDE_SOURCE, filename: 'prelude.js' },
    { code: result.outputFiles[0].text, filename: 'maizzle-engine.js' },
  ]);
}
