import { PassThrough } from 'node:stream';

// scripts/lib/log-format.js is plain Node so `npm start` can use it before anything is built.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain JS script of scripts/lib
const logFormat = require('../../scripts/lib/log-format') as {
  chooseLogFormat(input: { isTTY: boolean; env: Record<string, string | undefined> }): 'pretty' | 'json';
  formatLogLine(line: string, options?: { color?: boolean }): string | null;
  prettify(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, options?: { color?: boolean }): void;
};

const at = new Date(2025, 2, 1, 9, 5, 7).getTime(); // local time: the formatter prints the local clock
const json = (entry: Record<string, unknown>) => JSON.stringify({ time: at, pid: 1, app: 'all-in-one', ...entry });

describe('npm start: log format', () => {
  it('is human-readable in a terminal outside production', () => {
    expect(logFormat.chooseLogFormat({ isTTY: true, env: {} })).toBe('pretty');
    expect(logFormat.chooseLogFormat({ isTTY: true, env: { NODE_ENV: 'development' } })).toBe('pretty');
    expect(logFormat.chooseLogFormat({ isTTY: true, env: { NODE_ENV: 'test' } })).toBe('pretty');
  });

  it('stays JSON when stdout is not a terminal (pipes, files, services) and always in production', () => {
    expect(logFormat.chooseLogFormat({ isTTY: false, env: {} })).toBe('json');
    expect(logFormat.chooseLogFormat({ isTTY: false, env: { NODE_ENV: 'development' } })).toBe('json');
    expect(logFormat.chooseLogFormat({ isTTY: true, env: { NODE_ENV: 'production' } })).toBe('json');
    expect(logFormat.chooseLogFormat({ isTTY: false, env: { NODE_ENV: 'production' } })).toBe('json');
  });

  it('prints one short line per entry: clock, level when not info, context, message', () => {
    expect(logFormat.formatLogLine(json({ level: 30, context: 'Launcher', msg: 'api ready' }))).toBe('09:05:07 Launcher: api ready');
    expect(logFormat.formatLogLine(json({ level: 40, context: 'RateLimit', msg: 'Redis unreachable' }))).toBe('09:05:07 WARN RateLimit: Redis unreachable');
    expect(logFormat.formatLogLine(json({ level: 30, msg: 'no context' }))).toBe('09:05:07 no context');
  });

  it('shows a request as method, path, status and time, and an error with its stack indented', () => {
    expect(
      logFormat.formatLogLine(
        json({ level: 30, req: { id: 'r1', method: 'GET', url: '/api/clients' }, res: { statusCode: 200 }, responseTime: 4, msg: 'request completed' }),
      ),
    ).toBe('09:05:07 GET /api/clients 200 4 ms');
    expect(
      logFormat.formatLogLine(json({ level: 50, context: 'Worker', msg: 'job failed', err: { message: 'boom', stack: 'Error: boom\n    at x (y.js:1:1)' } })),
    ).toBe('09:05:07 ERROR Worker: job failed\n    Error: boom\n        at x (y.js:1:1)');
  });

  it("drops Nest's module and route wiring at info, keeps it when it warns", () => {
    expect(logFormat.formatLogLine(json({ level: 30, context: 'RoutesResolver', msg: 'AppController {/}:' }))).toBeNull();
    expect(logFormat.formatLogLine(json({ level: 30, context: 'InstanceLoader', msg: 'AppModule dependencies initialized' }))).toBeNull();
    expect(logFormat.formatLogLine(json({ level: 40, context: 'InstanceLoader', msg: 'odd' }))).toBe('09:05:07 WARN InstanceLoader: odd');
  });

  it('passes through lines that are not pino objects', () => {
    expect(logFormat.formatLogLine('plain text from elsewhere')).toBe('plain text from elsewhere');
    expect(logFormat.formatLogLine('[1,2]')).toBe('[1,2]');
    expect(logFormat.formatLogLine('{"no":"level"}')).toBe('{"no":"level"}');
  });

  it('colors warnings and errors when asked, never info', () => {
    expect(logFormat.formatLogLine(json({ level: 30, msg: 'fine' }), { color: true })).toBe('09:05:07 fine');
    expect(logFormat.formatLogLine(json({ level: 50, msg: 'bad' }), { color: true })).toBe('\x1b[31m09:05:07 ERROR bad\x1b[0m');
  });

  it('reassembles lines split across chunks and formats a last line without a newline', async () => {
    const input = new PassThrough();
    const written: string[] = [];
    const output = { write: (text: string) => written.push(text) } as unknown as NodeJS.WritableStream;
    logFormat.prettify(input, output);
    const first = json({ level: 30, context: 'Launcher', msg: 'worker-dns ready' });
    input.write(first.slice(0, 20));
    input.write(`${first.slice(20)}\n${json({ level: 30, context: 'RouterExplorer', msg: 'Mapped' })}\n`);
    input.end(json({ level: 30, context: 'Launcher', msg: 'api ready' }));
    await new Promise((resolve) => input.on('end', resolve));
    expect(written.join('')).toBe('09:05:07 Launcher: worker-dns ready\n09:05:07 Launcher: api ready\n');
  });
});
