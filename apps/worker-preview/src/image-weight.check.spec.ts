import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildReports } from '@mailproof/engine/reports';
import { SsrfGuard } from '@mailproof/net-guard';
import { HEAVY_IMAGE_BYTES, measureImageWeights } from './image-weight.check';

/** A loopback image host on 127.0.0.2, allow-listed for the test; 127.0.0.1 stands for a private address. */
describe('measureImageWeights', () => {
  let server: Server;
  let port: number;
  const requests: string[] = [];
  let guard: SsrfGuard;

  beforeAll(async () => {
    server = createServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      const sizes: Record<string, string> = { '/hero.jpg': '48213', '/huge.png': String(HEAVY_IMAGE_BYTES * 2), '/pixel.gif': '43' };
      if (request.url === '/missing.png') return void response.writeHead(404).end();
      response.writeHead(200, { 'content-length': sizes[request.url ?? ''] ?? '0' }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    requests.length = 0;
    guard = new SsrfGuard({ allowedAddresses: ['127.0.0.2'] });
  });
  afterEach(() => guard.close());

  it('fills bytes from HEAD requests, flags heavy images, never requests tracking pixels and notes what it could not measure', async () => {
    const base = `http://127.0.0.2:${port}`;
    const html = `<html><body>
      <img src="${base}/hero.jpg" alt="Hero" width="600">
      <img src="${base}/hero.jpg" alt="Hero again" width="600">
      <img src="${base}/huge.png" alt="Huge" width="600">
      <img src="${base}/missing.png" alt="Missing" width="100">
      <img src="http://127.0.0.1:${port}/private.png" alt="Private" width="100">
      <img src="data:image/png;base64,iVBORw0KGgo=" alt="Inline" width="10">
      <img src="${base}/pixel.gif" width="1" height="1" alt="">
    </body></html>`;
    const report = buildReports(html, { format: 'html', clients: ['gmail-web'] }).imageReport;
    const measured = await measureImageWeights(report, guard);
    expect(measured.images.map((image) => [image.src.replace(base, ''), image.bytes])).toEqual([
      ['/hero.jpg', 48213],
      ['/hero.jpg', 48213],
      ['/huge.png', HEAVY_IMAGE_BYTES * 2],
      ['/missing.png', null],
      [`http://127.0.0.1:${port}/private.png`, null],
      ['data:image/png;base64,iVBORw0KGgo=', null],
      ['/pixel.gif', null],
    ]);
    expect(measured.totalBytes).toBe(48213 + HEAVY_IMAGE_BYTES * 2);
    expect(measured.issues.filter((issue) => issue.rule === 'image-too-heavy')).toEqual([
      expect.objectContaining({ severity: 'warning', url: `${base}/huge.png` }),
    ]);
    expect(measured.images[2].rules).toContain('image-too-heavy');
    // Each distinct URL once; the pixel is never requested (a request would record a fake open).
    expect(requests.sort()).toEqual(['HEAD /hero.jpg', 'HEAD /huge.png', 'HEAD /missing.png']);
    expect(measured.notes).toEqual([
      '1 image URL(s) not requested: they do not point to a public address.',
      '1 image(s) answered without a size (no Content-Length, or an error status).',
    ]);
  });

  it('stays within the time budget when the image host never answers', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.2', resolve));
    const silentPort = (silent.address() as AddressInfo).port;
    const report = buildReports(`<html><body><img src="http://127.0.0.2:${silentPort}/slow.png" alt="x" width="100"></body></html>`, {
      format: 'html',
      clients: [],
    }).imageReport;
    const measured = await measureImageWeights(report, guard, { maxImages: 25, budgetMs: 200, concurrency: 2 });
    expect(measured.images[0].bytes).toBeNull();
    expect(measured.notes).toEqual(['1 image(s) not measured: the 200 ms budget was spent.']);
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });
});
