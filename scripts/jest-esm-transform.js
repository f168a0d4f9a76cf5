// Jest (before Node 24.9) cannot require ES-module-only packages such as parse5 8.
// This transformer turns those few node_modules files into CommonJS with esbuild.
const { transformSync } = require('esbuild');

module.exports = {
  process(source, filename) {
    const { code, map } = transformSync(source, {
      loader: 'js',
      format: 'cjs',
      target: 'node20',
      sourcemap: 'external',
      sourcefile: filename,
    });
    return { code, map };
  },
  getCacheKey(source, filename) {
    return require('crypto').createHash('sha1').update(filename).update('\0').update(source).update('\0esm-v1').digest('hex');
  },
};
