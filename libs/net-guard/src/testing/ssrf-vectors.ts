import type { HostResolver } from '../ssrf-guard';

/**
 * Test support (not exported by the lib): the SSRF vectors every fetching feature of the lib must refuse,
 * shared by the guard's spec and the URL import's. `canaryPort` is the port of a loopback canary on
 * 127.0.0.1 that must never receive a request.
 */
export type Vector = [name: string, url: (canaryPort: number) => string];

/** What the test resolver answers; never real DNS. 127.0.0.2 is the allow-listed "public" test server. */
export const TEST_DNS_ANSWERS: Readonly<Record<string, readonly string[]>> = {
  'images.example.test': ['127.0.0.2'],
  'rebind.example.test': ['127.0.0.1'],
  'mixed.example.test': ['127.0.0.2', '127.0.0.1'],
  'metadata.example.test': ['169.254.169.254'],
};

export const testResolver: HostResolver = async (hostname) =>
  (TEST_DNS_ANSWERS[hostname] ?? ['203.0.113.1']).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

/** Refused by the URL check itself, before any connection. */
export const REFUSED_BEFORE_CONNECTING: Vector[] = [
  ['loopback literal', (port) => `http://127.0.0.1:${port}/`],
  ['localhost', (port) => `http://localhost:${port}/`],
  ['IPv6 loopback', (port) => `http://[::1]:${port}/`],
  ['IPv4-mapped IPv6 loopback', (port) => `http://[::ffff:127.0.0.1]:${port}/`],
  ['decimal IPv4 (2130706433)', (port) => `http://2130706433:${port}/`],
  ['hex and short IPv4 (0x7f.1)', (port) => `http://0x7f.1:${port}/`],
  ['uppercase scheme', (port) => `HTTP://127.0.0.1:${port}/`],
  ['credentials', (port) => `http://user:pass@127.0.0.2:${port}/`],
  ['single-label name', (port) => `http://intranet:${port}/`],
  ['file scheme', () => 'file:///etc/passwd'],
];

/** Non-loopback private targets: refused without dispatching anything (no socket to them, ever). */
export const PRIVATE_TARGETS: Vector[] = [
  ['private 10.x', () => 'http://10.0.0.1/'],
  ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/'],
  ['unique-local IPv6 metadata', () => 'http://[fd00:ec2::254]/'],
];

/** Public-looking names whose answers (TEST_DNS_ANSWERS) are not all public: refused inside the guard's lookup. */
export const NAMES_RESOLVING_PRIVATE: Vector[] = [
  ['a name resolving to the metadata address', () => 'http://metadata.example.test/'],
  ['a name resolving to loopback (DNS rebinding)', (port) => `http://rebind.example.test:${port}/`],
  ['a name with one loopback answer among public ones', (port) => `http://mixed.example.test:${port}/`],
];

/** Where an allowed server's redirect must never lead. */
export const REDIRECT_TARGETS: Vector[] = [
  ['a loopback literal', (port) => `http://127.0.0.1:${port}/`],
  ['localhost', (port) => `http://localhost:${port}/`],
  ['a mapped IPv6 literal', (port) => `http://[::ffff:7f00:1]:${port}/`],
  ['a name resolving to loopback', (port) => `http://rebind.example.test:${port}/`],
];
