import { SOURCE_MARKER_ATTRIBUTE } from '../source-markers';
import { LAZY_REACT_EMAIL_PACKAGES, REACT_EMAIL_PACKAGES } from './jsx-allowed-imports';
import { JSX_ENTRY_FILE } from './transpile-jsx';

/**
 * Isolate-side code, part of the trusted snapshot. Defines `__mailproofRenderJsx(input)`: evaluates the
 * transpiled template with an allow-list `require`, renders its default export with
 * renderToStaticMarkup and returns a JSON outcome. Suspending components (React Email's <Tailwind>
 * compiles its CSS asynchronously) are retried after letting pending promises settle.
 */
export function jsxIsolateRuntimeSource(): string {
  return String.raw`
(function () {
  var lib = globalThis.__mailproofLib;
  var corePackages = ${JSON.stringify(REACT_EMAIL_PACKAGES.filter((name) => !LAZY_REACT_EMAIL_PACKAGES.includes(name)))};
  var lazyPackages = ${JSON.stringify(LAZY_REACT_EMAIL_PACKAGES)};
  var lazyLoaded = {};
  function loadLazy(name) {
    if (!lazyLoaded[name]) { lazyLoaded[name] = true; globalThis.__mailproofLoadLazy[name](); }
    return lib.modules['@react-email/' + name];
  }
  function reactEmailModule(name) {
    return lazyPackages.indexOf(name) >= 0 ? loadLazy(name) : lib.modules['@react-email/' + name];
  }
  function componentsNamespace() {
    var core = {};
    corePackages.forEach(function (name) { Object.assign(core, lib.modules['@react-email/' + name]); });
    // Lazy packages load on first use of one of their exports.
    return new Proxy(core, {
      get: function (target, key) {
        if (key in target || typeof key !== 'string') return target[key];
        for (var i = 0; i < lazyPackages.length; i++) {
          var mod = loadLazy(lazyPackages[i]);
          if (mod && key in mod) return mod[key];
        }
        return undefined;
      },
    });
  }
  // Elements written in the template itself carry their source position as a marker attribute; a component
  // that spreads its props onto its element (React Email's do) passes it on. Imported files are not marked.
  function markedJsxDev(type, props, key, isStaticChildren, source) {
    var runtime = lib.modules['react/jsx-runtime'];
    if (source && source.fileName === ${JSON.stringify(JSX_ENTRY_FILE)} && type !== runtime.Fragment && props && typeof props === 'object' && !(${JSON.stringify(SOURCE_MARKER_ATTRIBUTE)} in props)) {
      props = Object.assign({}, props);
      props[${JSON.stringify(SOURCE_MARKER_ATTRIBUTE)}] = source.lineNumber + ':' + source.columnNumber;
    }
    return isStaticChildren ? runtime.jsxs(type, props, key) : runtime.jsx(type, props, key);
  }
  var devRuntime;
  function makeRequire() {
    var components;
    return function require(specifier) {
      switch (specifier) {
        case 'react': return lib.modules.react;
        case 'react/jsx-runtime': return lib.modules['react/jsx-runtime'];
        case 'react/jsx-dev-runtime': return devRuntime || (devRuntime = { Fragment: lib.modules['react/jsx-runtime'].Fragment, jsxDEV: markedJsxDev });
        case '@react-email/components':
        case 'react-email': return components || (components = componentsNamespace());
      }
      var match = /^@react-email\/([a-z-]+)$/.exec(String(specifier));
      if (match && (corePackages.indexOf(match[1]) >= 0 || lazyPackages.indexOf(match[1]) >= 0)) return reactEmailModule(match[1]);
      throw new Error('Import of "' + String(specifier) + '" is not allowed');
    };
  }
  function fail(error) {
    var message = error && typeof error === 'object' && 'message' in error ? String(error.message) : String(error);
    var name = error && typeof error === 'object' && error.name ? String(error.name) : 'Error';
    return JSON.stringify({ ok: false, message: name + ': ' + message });
  }
  function isSuspension(error) {
    // React's production build only names the error by number: #426 is "a component suspended".
    return !!error && /suspend|error #426/i.test(String(error.message || error));
  }
  async function settle() {
    for (var i = 0; i < 500; i++) await null;
  }
  globalThis.__mailproofRenderJsx = async function (input) {
    try {
      var request = JSON.parse(input);
      var module = { exports: {} };
      var factory = new Function('module', 'exports', 'require', request.code);
      factory(module, module.exports, makeRequire());
      var exported = module.exports;
      var Component = exported && (exported.default || exported);
      if (typeof Component !== 'function' && !(Component && typeof Component === 'object' && Component.$$typeof)) {
        return JSON.stringify({ ok: false, message: 'The template has no default export that is a React component' });
      }
      var props = request.props || (Component.PreviewProps && typeof Component.PreviewProps === 'object' ? Component.PreviewProps : {});
      var element = lib.modules.react.createElement(Component, props);
      for (var attempt = 0; ; attempt++) {
        try {
          return JSON.stringify({ ok: true, value: lib.renderToStaticMarkup(element) });
        } catch (error) {
          if (!isSuspension(error) || attempt >= 20) throw error;
          await settle();
        }
      }
    } catch (error) {
      return fail(error);
    }
  };
})();
`;
}
