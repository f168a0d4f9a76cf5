/**
 * Runs first in every isolate snapshot. A bare V8 isolate has no web or Node APIs; React's browser
 * server build and Tailwind 4 touch a few at load time. These are inert stand-ins: nothing here can
 * reach the host, and timers never fire on their own (React's synchronous render does not need them).
 */
export const ISOLATE_PRELUDE_SOURCE = String.raw`
(function () {
  var g = globalThis;
  g.self = g;
  var BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  g.atob = function (input) {
    var s = String(input).replace(/[\s=]+/g, ''), out = '', bits = 0, value = 0;
    for (var i = 0; i < s.length; i++) {
      var index = BASE64.indexOf(s.charAt(i));
      if (index < 0) throw new Error('Invalid base64');
      value = (value << 6) | index; bits += 6;
      if (bits >= 8) { bits -= 8; out += String.fromCharCode((value >> bits) & 255); }
    }
    return out;
  };
  g.structuredClone = function clone(value) {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map(clone);
    if (value instanceof Map) return new Map(Array.from(value, function (e) { return [clone(e[0]), clone(e[1])]; }));
    if (value instanceof Set) return new Set(Array.from(value, clone));
    if (value instanceof Date) return new Date(value.getTime());
    var out = {};
    Object.keys(value).forEach(function (k) { out[k] = clone(value[k]); });
    return out;
  };
  g.TextEncoder = function TextEncoder() {};
  g.TextEncoder.prototype.encode = function (input) {
    var s = String(input === undefined ? '' : input), out = [];
    for (var i = 0; i < s.length; i++) {
      var c = s.charCodeAt(i);
      if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
        var c2 = s.charCodeAt(i + 1);
        if (c2 >= 0xdc00 && c2 < 0xe000) { c = 0x10000 + ((c - 0xd800) << 10) + (c2 - 0xdc00); i++; }
      }
      if (c < 0x80) out.push(c);
      else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
    return new Uint8Array(out);
  };
  g.TextDecoder = function TextDecoder() {};
  g.TextDecoder.prototype.decode = function (bytes) {
    if (!bytes) return '';
    var b = new Uint8Array(bytes.buffer ? bytes.buffer : bytes, bytes.byteOffset || 0, bytes.byteLength), s = '';
    for (var i = 0; i < b.length; ) {
      var c = b[i++];
      if (c >= 0xf0) c = ((c & 7) << 18) | ((b[i++] & 63) << 12) | ((b[i++] & 63) << 6) | (b[i++] & 63);
      else if (c >= 0xe0) c = ((c & 15) << 12) | ((b[i++] & 63) << 6) | (b[i++] & 63);
      else if (c >= 0xc0) c = ((c & 31) << 6) | (b[i++] & 63);
      s += String.fromCodePoint(c);
    }
    return s;
  };
  var pending = [];
  g.setTimeout = function (fn) { pending.push(fn); return pending.length; };
  g.clearTimeout = function () {};
  g.setImmediate = g.setTimeout;
  g.queueMicrotask = function (fn) { Promise.resolve().then(fn); };
  g.MessageChannel = function MessageChannel() {
    var port1 = { onmessage: null, postMessage: function () {} };
    this.port1 = port1;
    this.port2 = { onmessage: null, postMessage: function (data) { pending.push(function () { if (port1.onmessage) port1.onmessage({ data: data }); }); } };
  };
  g.performance = { now: function () { return Date.now(); } };
})();
`;

/**
 * JSX only: templates commonly read `process.env.X` for defaults (React Email's examples do), so
 * `process` exists but holds nothing except `env.NODE_ENV`: no exit, binding, mainModule or real env.
 */
export const ISOLATE_PROCESS_STUB_SOURCE = `globalThis.process = Object.freeze({ env: Object.freeze({ NODE_ENV: 'production' }) });`;
