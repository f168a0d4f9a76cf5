import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { PNG } from 'pngjs';

/** A loopback HTTP server on `host` that answers with `handler` and records every request's path. */
export async function startRecordingServer(
  host: string,
  handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('canary'),
): Promise<{ server: Server; port: number; origin: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as { port: number };
  return {
    server,
    port,
    origin: `http://${host}:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A solid-color PNG (for image servers in tests). */
export function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) png.data.set([r, g, b, 255], i * 4);
  return PNG.sync.write(png);
}

/** The RGB of one pixel of a PNG. */
export function pixelAt(png: Buffer, x: number, y: number): [number, number, number] {
  const image = PNG.sync.read(png);
  const offset = (image.width * y + x) * 4;
  return [image.data[offset], image.data[offset + 1], image.data[offset + 2]];
}
