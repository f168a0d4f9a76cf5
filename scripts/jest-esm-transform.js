// Jest (before Node 24.9) cannot require ES-module-only packages such as parse5 8.
// This transformer turns those few node_modules files into CommonJS with esbuild.
const { transformSync } = require('esbuild');

module.exports = {
  process(source, filename) {
    // CommonJS has no import.meta; dohdec reads its own package.json through it.
    const cjsSource = source.replace(/import\.meta\.url/g, "require('url').pathToFileURL(__filename).href");
    const { code, map } = transformSync(cjsSource, {
      loader: 'js',
      format: 'cjs',
      target: 'node20',
      sourcemap: 'external',
      sourcefile: filename,
      // import() becomes require(): jest's CommonJS runtime cannot run dynamic imports.
      supported: { 'dynamic-import': false },
    });
    return { code, map };
  },
  getCacheKey(source, filename) {
    return require('crypto').createHash('sha1').update(filename).update('\0').update(source).update('\0esm-v3').digest('hex');
  },
};
