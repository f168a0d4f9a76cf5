import { connect, createServer, type Server, type Socket } from 'node:net';

/** PostgreSQL's ErrorResponse for a session it ends: FATAL 57P01, what `pg_ctl stop -m fast` sends. */
function adminShutdownMessage(): Buffer {
  const fields = Buffer.concat(
    [
      ['S', 'FATAL'],
      ['V', 'FATAL'],
      ['C', '57P01'],
      ['M', 'terminating connection due to administrator command'],
    ].map(([code, value]) => Buffer.from(`${code}${value}\0`, 'utf8')),
  );
  const body = Buffer.concat([fields, Buffer.from([0])]);
  const header = Buffer.alloc(5);
  header.write('E', 0, 'ascii');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

/**
 * A loopback TCP proxy in front of the real PostgreSQL that can end a session the way a stopping server
 * does, at the worst moment for a client: right after a ReadyForQuery, in the same write (so the client
 * reads both in one chunk and parses the FATAL before any code awaiting the query has run). Everything
 * else passes through unchanged. Server messages are read as PostgreSQL frames them (a type byte and a
 * 32-bit length); the client sends no SSL request (node-postgres's default).
 */
export class PostgresFaultProxy {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private armed = false;
  /** Sessions opened through the proxy, and sessions it ended. */
  connections = 0;
  sessionsEnded = 0;

  private constructor(
    private readonly upstreamHost: string,
    private readonly upstreamPort: number,
  ) {
    this.server = createServer((client) => this.relay(client));
  }

  static async start(upstreamUrl: string): Promise<PostgresFaultProxy> {
    const upstream = new URL(upstreamUrl);
    const proxy = new PostgresFaultProxy(upstream.hostname, Number(upstream.port || 5432));
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** The upstream URL with the proxy's address in place of the server's. */
  urlFor(upstreamUrl: string): string {
    const url = new URL(upstreamUrl);
    url.hostname = '127.0.0.1';
    url.port = String((this.server.address() as { port: number }).port);
    return url.toString();
  }

  /** The next ReadyForQuery the server sends, on any session, is followed in the same write by FATAL 57P01. */
  endNextSessionAfterReadyForQuery(): void {
    this.armed = true;
  }

  get openSessions(): number {
    return this.sockets.size / 2;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relay(client: Socket): void {
    this.connections += 1;
    const upstream = connect(this.upstreamPort, this.upstreamHost);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    let pending = Buffer.alloc(0);
    upstream.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      let offset = 0;
      const out: Buffer[] = [];
      while (pending.length - offset >= 5) {
        const length = pending.readInt32BE(offset + 1);
        if (pending.length - offset < 1 + length) break;
        const message = pending.subarray(offset, offset + 1 + length);
        offset += 1 + length;
        out.push(message);
        if (message[0] === 0x5a /* Z */ && this.armed) {
          this.armed = false;
          this.sessionsEnded += 1;
          out.push(adminShutdownMessage());
          client.end(Buffer.concat(out));
          upstream.destroy();
          return;
        }
      }
      pending = pending.subarray(offset);
      if (out.length > 0) client.write(Buffer.concat(out));
    });
  }
}
