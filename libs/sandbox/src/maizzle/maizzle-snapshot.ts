import * as esbuild from 'esbuild';
import { sandboxSourceFile } from '../sandbox-sources';
import { createIsolateImage, releaseIsolateImage, type IsolateImage } from '../isolate/isolate-image';
import { ISOLATE_PRELUDE_SOURCE } from '../isolate/isolate-prelude';

let snapshotPromise: Promise<IsolateImage> | undefined;

/** The Maizzle template engine and htmlparser2, bundled for the isolate and snapshotted once per process. */
export function getMaizzleSnapshot(): Promise<IsolateImage> {
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
  void pending?.then(releaseIsolateImage).catch(() => undefined);
}

async function createMaizzleSnapshot(): Promise<IsolateImage> {
  const result = await esbuild.build({
    entryPoints: [sandboxSourceFile('maizzle/maizzle-template-engine')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: false,
    logLevel: 'silent',
  });
  return createIsolateImage([
    { code: ISOLATE_PRELUDE_SOURCE, filename: 'prelude.js' },
    { code: result.outputFiles[0].text, filename: 'maizzle-engine.js' },
  ]);
}
