import { connect, constants, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';

export interface DohResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface DohRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | Uint8Array;
  signal?: AbortSignal;
}

/** A DNS message is at most 64 KiB; anything larger is not a DoH answer. */
const MAX_BODY_BYTES = 65_535;
const IDLE_SESSION_MS = 30_000;

/**
 * tangerine's pluggable HTTP request function over node:http2, one multiplexed session per
 * server. RFC 8484 names HTTP/2 as the DoH baseline: public resolvers speak it over TLS (ALPN)
 * and unbound serves cleartext h2c only, which undici (tangerine's default client) cannot speak.
 * An abort rejects with an AbortError so tangerine maps its own timeout to ETIMEOUT.
 */
export class Http2RequestAdapter {
  private readonly sessions = new Map<string, ClientHttp2Session>();
  private closed = false;

  readonly request = (url: string, options: DohRequestOptions = {}): Promise<DohResponse> => {
    const target = new URL(url);
    return new Promise<DohResponse>((resolve, reject) => {
      if (options.signal?.aborted) return reject(abortError(options.signal.reason));
      if (this.closed) return reject(Object.assign(new Error('DoH client closed'), { code: 'ECANCELLED' }));
      let session: ClientHttp2Session;
      try {
        session = this.session(target.origin);
      } catch (error) {
        return reject(error);
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
      if (!options.body) delete headers['content-type'];
      const stream = session.request({ ...headers, ':method': (options.method ?? 'GET').toUpperCase(), ':path': `${target.pathname}${target.search}` });
      const onAbort = () => {
        stream.close(constants.NGHTTP2_CANCEL);
        reject(abortError(options.signal?.reason));
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const chunks: Buffer[] = [];
      let size = 0;
      let responseHeaders: IncomingHttpHeaders = {};
      stream.on('response', (received) => (responseHeaders = received));
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          stream.close(constants.NGHTTP2_CANCEL);
          reject(Object.assign(new Error('DoH answer too large'), { code: 'EBADRESP' }));
        } else chunks.push(chunk);
      });
      stream.on('end', () => {
        options.signal?.removeEventListener('abort', onAbort);
        resolve({ statusCode: Number(responseHeaders[':status'] ?? 0), headers: responseHeaders, body: Buffer.concat(chunks) });
      });
      stream.on('error', (error) => {
        options.signal?.removeEventListener('abort', onAbort);
        reject(error);
      });
      if (options.body) stream.end(Buffer.from(options.body));
      else stream.end();
    });
  };

  private session(origin: string): ClientHttp2Session {
    const existing = this.sessions.get(origin);
    if (existing && !existing.closed && !existing.destroyed) return existing;
    const session = connect(origin);
    const forget = () => {
      if (this.sessions.get(origin) === session) this.sessions.delete(origin);
    };
    session.on('error', forget);
    session.on('close', forget);
    session.on('goaway', forget);
    session.setTimeout(IDLE_SESSION_MS, () => session.close());
    // Idle sessions must not keep a worker process alive on shutdown.
    session.unref();
    this.sessions.set(origin, session);
    return session;
  }

  close(): void {
    this.closed = true;
    for (const session of this.sessions.values()) session.destroy();
    this.sessions.clear();
  }
}

function abortError(reason: unknown): Error {
  return Object.assign(new Error(`DoH request aborted (${String(reason)})`), { name: 'AbortError', code: 'ABORT_ERR' });
}
