import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Test support (not exported by the lib): a real HTTP server on a loopback address. Specs listen on
 * 127.0.0.2 as "the internet" (allow-listed on their guard) and on 127.0.0.1 as a canary that must never
 * receive a request; all of 127/8 is loopback on Linux.
 */
export interface LoopbackServer {
  server: Server;
  port: number;
  /** `http://<host>:<port>` */
  base: string;
  /** `METHOD /path?query` of every request, in arrival order. */
  hits: string[];
  /** Most requests in flight at the same moment (a request counts until its response is closed). */
  maxInFlight: number;
  /** Responses the client abandoned: closed before the server had finished writing them. */
  abandoned: string[];
  reset(): void;
  close(): Promise<void>;
}

export async function startLoopbackServer(host: string, handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<LoopbackServer> {
  let inFlight = 0;
  const test = {
    hits: [] as string[],
    maxInFlight: 0,
    abandoned: [] as string[],
  } as LoopbackServer;
  const server = createServer((request, response) => {
    const name = `${request.method} ${request.url}`;
    test.hits.push(name);
    inFlight++;
    test.maxInFlight = Math.max(test.maxInFlight, inFlight);
    response.once('close', () => {
      inFlight--;
      if (!response.writableFinished) test.abandoned.push(name);
    });
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(test, {
    server,
    port,
    base: `http://${host}:${port}`,
    reset: () => {
      test.hits.length = 0;
      test.abandoned.length = 0;
      test.maxInFlight = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** Resolves when `check` holds, polling every 10 ms; rejects after `ms` (a test's bounded wait). */
export async function eventually(check: () => boolean, ms = 2000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
