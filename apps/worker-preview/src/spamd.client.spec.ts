import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { SpamdError, checkWithSpamd, parseSpamdResponse } from './spamd.client';

/** An answer as Debian's spamd 4.0 gives it to REPORT (captured, shortened). */
const REPORT_ANSWER = [
  'SPAMD/1.1 0 EX_OK',
  'Content-length: 900',
  'Spam: True ; 8.9 / 5.0',
  '',
  'Spam detection software, running on the system "vm",',
  'has identified this incoming email as possible spam.',
  '',
  'Content analysis details:   (8.9 points, 5.0 required)',
  '',
  ' pts rule name              description',
  '---- ---------------------- --------------------------------------------------',
  '-0.0 NO_RECEIVED            Informational: message has no Received headers',
  ' 2.7 MISSING_DATE           Missing Date: header',
  ' 1.0 ADVANCE_FEE_2_NEW_MONEY Advance Fee fraud and lots of money',
  ' 0.1 URI_LONG_DESCRIPTION   BODY: A description that spamd wraps onto',
  '                            a second line',
  ' 0.0 NO_DESCRIPTION',
  '',
  '',
].join('\r\n');

describe('parseSpamdResponse', () => {
  it('reads the verdict from the Spam header and every rule of the report table', () => {
    expect(parseSpamdResponse(REPORT_ANSWER)).toEqual({
      score: 8.9,
      threshold: 5,
      isSpam: true,
      rules: [
        { name: 'NO_RECEIVED', score: -0, description: 'Informational: message has no Received headers' },
        { name: 'MISSING_DATE', score: 2.7, description: 'Missing Date: header' },
        { name: 'ADVANCE_FEE_2_NEW_MONEY', score: 1, description: 'Advance Fee fraud and lots of money' },
        { name: 'URI_LONG_DESCRIPTION', score: 0.1, description: 'BODY: A description that spamd wraps onto a second line' },
        { name: 'NO_DESCRIPTION', score: 0, description: null },
      ],
    });
  });

  it('reads a clean verdict with a negative score', () => {
    expect(parseSpamdResponse('SPAMD/1.1 0 EX_OK\r\nContent-length: 0\r\nSpam: False ; -1.5 / 5.0\r\n\r\n')).toEqual({
      score: -1.5,
      threshold: 5,
      isSpam: false,
      rules: [],
    });
  });

  it.each([
    ['an error status', 'SPAMD/1.0 76 Bad header line: xyz\r\n\r\n', /refused the message: 76/],
    ['something else', 'HTTP/1.1 200 OK\r\n\r\n', /not a spamd answer/],
    ['no verdict', 'SPAMD/1.1 0 EX_OK\r\nContent-length: 0\r\n\r\n', /without a Spam: header/],
  ])('rejects %s', (_name, raw, message) => {
    expect(() => parseSpamdResponse(raw)).toThrow(message);
  });
});

describe('checkWithSpamd', () => {
  let server: Server;
  let port: number;
  let behavior: (socket: Socket, request: string) => void;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    // Half-open like spamd: the client ends its side after the message, the server answers later (or never).
    server = createServer({ allowHalfOpen: true }, (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      let request = '';
      socket.on('data', (chunk) => {
        request += chunk.toString('utf8');
      });
      socket.on('end', () => behavior(socket, request));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends a REPORT request with the exact Content-length and parses the answer', async () => {
    let seen = '';
    behavior = (socket, request) => {
      seen = request;
      socket.end(REPORT_ANSWER);
    };
    const message = Buffer.from('Subject: é\r\n\r\nbody', 'utf8');
    const result = await checkWithSpamd(message, { host: '127.0.0.1', port, timeoutMs: 2000 });
    expect(result.score).toBe(8.9);
    expect(seen.startsWith(`REPORT SPAMC/1.5\r\nContent-length: ${message.length}\r\n`)).toBe(true);
    expect(seen.endsWith('\r\n\r\nSubject: é\r\n\r\nbody')).toBe(true);
  });

  it('gives up after its timeout when spamd never answers', async () => {
    behavior = () => undefined;
    await expect(checkWithSpamd(Buffer.from('x'), { host: '127.0.0.1', port, timeoutMs: 300 })).rejects.toThrow(/did not answer within 300 ms/);
  });

  it('reports a refused connection as a SpamdError', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(checkWithSpamd(Buffer.from('x'), { host: '127.0.0.1', port: closedPort, timeoutMs: 2000 })).rejects.toBeInstanceOf(SpamdError);
  });
});
