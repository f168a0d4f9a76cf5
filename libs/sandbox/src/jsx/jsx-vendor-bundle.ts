import * as esbuild from 'esbuild';
import path from 'node:path';
import { LAZY_REACT_EMAIL_PACKAGES, REACT_EMAIL_PACKAGES } from './jsx-allowed-imports';

export interface JsxVendorBundle {
  /** React, react-dom/server.browser and the non-lazy React Email components; sets `__mailproofLib`. */
  core: string;
  /** One script per lazy package, each registering itself into `__mailproofLib.modules` when run. */
  lazy: Record<string, string>;
}

// The trusted libraries are bundled from this project's own node_modules, never from user input.
function nodeModulesDir(): string {
  return path.dirname(path.dirname(require.resolve('react/package.json')));
}

const BROWSER_BUILD: esbuild.BuildOptions = {
  bundle: true,
  write: false,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  // Unminified on purpose: minified vendor bundles broke once V8 snapshotted them into the isolate.
  minify: false,
  legalComments: 'none',
  logLevel: 'silent',
  define: { 'process.env.NODE_ENV': '"production"' },
};

/** Lazy bundles take React and the core components from the snapshot instead of bundling copies. */
const useSnapshotModules: esbuild.Plugin = {
  name: 'mailproof-snapshot-modules',
  setup(build) {
    build.onResolve({ filter: /^(react|react\/jsx-runtime|@react-email\/[a-z-]+)$/ }, (args) => {
      const name = args.path.replace('@react-email/', '');
      if (LAZY_REACT_EMAIL_PACKAGES.includes(name)) return undefined;
      return { path: args.path, namespace: 'mailproof-snapshot-module' };
    });
    build.onLoad({ filter: /.*/, namespace: 'mailproof-snapshot-module' }, (args) => ({
      contents: `module.exports = globalThis.__mailproofLib.modules[${JSON.stringify(args.path)}];`,
      loader: 'js',
    }));
  },
};

export async function buildJsxVendorBundle(): Promise<JsxVendorBundle> {
  const modulesDir = nodeModulesDir();
  const resolveDir = path.dirname(modulesDir);
  const corePackages = REACT_EMAIL_PACKAGES.filter((name) => !LAZY_REACT_EMAIL_PACKAGES.includes(name));
  const coreEntry = [
    `import * as React from 'react';`,
    `import * as JsxRuntime from 'react/jsx-runtime';`,
    `import { renderToStaticMarkup } from 'react-dom/server.browser';`,
    ...corePackages.map((name, index) => `import * as Package${index} from '@react-email/${name}';`),
    `const modules = { react: React, 'react/jsx-runtime': JsxRuntime };`,
    ...corePackages.map((name, index) => `modules['@react-email/${name}'] = Package${index};`),
    `globalThis.__mailproofLib = { modules, renderToStaticMarkup };`,
    `globalThis.__mailproofLoadLazy = {};`,
  ].join('\n');
  const [core, ...lazy] = await Promise.all([
    esbuild.build({ ...BROWSER_BUILD, nodePaths: [modulesDir], stdin: { contents: coreEntry, resolveDir, loader: 'js' } }),
    ...LAZY_REACT_EMAIL_PACKAGES.map((name) =>
      esbuild.build({
        ...BROWSER_BUILD,
        nodePaths: [modulesDir],
        plugins: [useSnapshotModules],
        stdin: {
          contents: `import * as Package from '@react-email/${name}';\nglobalThis.__mailproofLib.modules['@react-email/${name}'] = Package;`,
          resolveDir,
          loader: 'js',
        },
      }),
    ),
  ]);
  const lazyScripts: Record<string, string> = {};
  LAZY_REACT_EMAIL_PACKAGES.forEach((name, index) => {
    lazyScripts[name] = lazy[index].outputFiles![0].text;
  });
  return { core: core.outputFiles![0].text, lazy: lazyScripts };
}
