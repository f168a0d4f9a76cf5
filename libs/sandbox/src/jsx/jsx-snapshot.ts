import { createIsolateImage, releaseIsolateImage, type IsolateImage } from '../isolate/isolate-image';
import { ISOLATE_PRELUDE_SOURCE, ISOLATE_PROCESS_STUB_SOURCE } from '../isolate/isolate-prelude';
import { jsxIsolateRuntimeSource } from './jsx-isolate-runtime';
import { buildJsxVendorBundle } from './jsx-vendor-bundle';

let snapshotPromise: Promise<IsolateImage> | undefined;

/**
 * The JSX snapshot, built once per process on first use (about 0.5 s: esbuild bundle + V8 snapshot)
 * and kept in memory. Built from this project's node_modules, so a fresh clone needs no build step.
 */
export function getJsxSnapshot(): Promise<IsolateImage> {
  if (!snapshotPromise) {
    snapshotPromise = createJsxSnapshot().catch((error: unknown) => {
      snapshotPromise = undefined; // let the next call retry instead of caching the failure
      throw error;
    });
  }
  return snapshotPromise;
}

export function releaseJsxSnapshot(): void {
  const pending = snapshotPromise;
  snapshotPromise = undefined;
  void pending?.then(releaseIsolateImage).catch(() => undefined);
}

async function createJsxSnapshot(): Promise<IsolateImage> {
  const vendor = await buildJsxVendorBundle();
  const lazyLoaders = Object.entries(vendor.lazy).map(([name, code]) => `globalThis.__mailproofLoadLazy[${JSON.stringify(name)}] = function () {\n${code}\n};`);
  return createIsolateImage([
    { code: ISOLATE_PRELUDE_SOURCE, filename: 'prelude.js' },
    { code: ISOLATE_PROCESS_STUB_SOURCE, filename: 'process-stub.js' },
    { code: vendor.core, filename: 'vendor.js' },
    ...lazyLoaders.map((code, index) => ({ code, filename: `vendor-lazy-${index}.js` })),
    { code: jsxIsolateRuntimeSource(), filename: 'runtime.js' },
  ]);
}
