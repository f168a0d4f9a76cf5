import type { INestApplicationContext } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import request from 'supertest';
import { startWorkerDns } from '../../apps/worker-dns/src/start-worker-dns';
import { startWorkerPreview } from '../../apps/worker-preview/src/start-worker-preview';
import { CLEAN_EMAIL } from '../fixtures/mcp/emails';
import { startTestApi, type RunningApi } from '../utils/api-server';
import { createTestAccount, openDatabase } from '../utils/database';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';

/**
 * Whole messages (format eml, issue 33) through the API with real workers in-process: the preview's
 * messageReport, the gate's message check and `bulk`, a hostile message's 422, and the share page.
 * worker-dns asks a resolver that does not answer, so the authentication lookups fail: the requirements
 * that need them are inconclusive (never failures), and what the message alone shows is decided.
 */

/** Quoted-printable as a mail client writes it: `=` as =3D, lines under 76 characters with soft breaks. */
function quotedPrintable(text: string): string {
  const escaped = text.replace(/=/g, '=3D');
  const lines: string[] = [];
  for (const line of escaped.split('\n')) {
    let rest = line;
    while (rest.length > 75) {
      let cut = 75;
      // Never split an =XX escape.
      while (rest[cut - 1] === '=' || rest[cut - 2] === '=') cut -= 1;
      lines.push(`${rest.slice(0, cut)}=`);
      rest = rest.slice(cut);
    }
    lines.push(rest);
  }
  return lines.join('\r\n');
}

/** The booking notice's HTML part with a query string, so its decoded link tells quoted-printable was decoded. */
const HTML_PART = CLEAN_EMAIL.replace('https://bistro.example.net/bookings/981', 'https://bistro.example.net/bookings?id=981&src=mail');
const TEXT_PART = 'Your table is booked\r\n\r\nFriday at 19:30, for four.\r\n\r\nManage the booking: https://bistro.example.net/bookings?id=981&src=mail\r\n';

interface MessageOptions {
  /** Header lines before the MIME headers; the default From, Subject, Date and Message-ID when omitted. */
  headers?: string[];
  listUnsubscribe?: boolean;
}

/** multipart/alternative: a text part (7bit) and the HTML part (quoted-printable). */
function bookingMessage({ headers, listUnsubscribe = true }: MessageOptions = {}): string {
  const boundary = 'b1_mailproof_e2e';
  return [
    ...(headers ?? [
      'From: Bistro Example <bookings@bistro.example.net>',
      'To: guest@example.org',
      'Subject: Your table is booked',
      'Date: Fri, 27 Nov 2026 10:00:00 +0000',
      'Message-ID: <booking-981@bistro.example.net>',
    ]),
    ...(listUnsubscribe ? ['List-Unsubscribe: <https://bistro.example.net/unsubscribe?u=981>, <mailto:unsubscribe@bistro.example.net?subject=981>'] : []),
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 7bit',
    '',
    TEXT_PART,
    `--${boundary}`,
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    quotedPrintable(HTML_PART),
    `--${boundary}--`,
    '',
  ].join('\r\n');
}

interface Requirement {
  id: string;
  status: string;
  reason: string;
  fix: string | null;
}

describe('whole messages (format eml) through the API', () => {
  const config = testConfig({
    DNS_SERVERS: '127.0.0.1:9',
    DNS_PROTOCOL: 'http',
    DNS_TIMEOUT_MS: 300,
    DNS_TRIES: 1,
    GATE_BUDGET_MS: 20_000,
    PREVIEW_BUDGET_MS: 20_000,
  });
  const queues = openQueues(config);
  let api: RunningApi;
  let worker: INestApplicationContext;
  let dnsWorker: INestApplicationContext;
  let db: DataSource;
  let pro: { accountId: string; key: string };

  beforeAll(async () => {
    db = await openDatabase(config);
    pro = await createTestAccount(db, 'pro');
    worker = await startWorkerPreview(config);
    dnsWorker = await startWorkerDns(config);
    api = await startTestApi(config);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await worker?.close();
    await dnsWorker?.close();
    await queues.closeAll();
    await db?.destroy();
  });

  const gate = (body: Record<string, unknown>) => request(api.url).post('/api/gate').set('x-api-key', pro.key).send(body);

  describe('POST /api/preview', () => {
    it("returns the messageReport and the HTML part's own findings: List-Unsubscribe without One-Click is bulk mail missing one-click unsubscribe", async () => {
      const response = await request(api.url).post('/api/preview').send({ html: bookingMessage(), format: 'eml' }).expect(200);
      const { messageReport, linkReport, transforms, cssReport } = response.body;
      expect(transforms).toHaveLength(21);
      expect(cssReport.length).toBeGreaterThan(0);
      // The HTML part was decoded (quoted-printable `=3D` back to `=`) before it was analyzed.
      expect(linkReport.links.map((link: { href: string }) => link.href)).toContain('https://bistro.example.net/bookings?id=981&src=mail');
      expect(messageReport.headers).toMatchObject({
        from: { address: 'bookings@bistro.example.net', name: 'Bistro Example', domain: 'bistro.example.net' },
        subject: 'Your table is booked',
        messageId: '<booking-981@bistro.example.net>',
        listUnsubscribe: { https: 'https://bistro.example.net/unsubscribe?u=981', oneClick: false },
      });
      expect(messageReport.parts.html).toMatchObject({ path: expect.any(String), clippedByGmail: false });
      expect(messageReport.parts.text).toMatchObject({ path: expect.any(String) });
      expect(messageReport.bulkSender.bulk).toBe(true);
      const oneClick = messageReport.bulkSender.requirements.find((requirement: Requirement) => requirement.id === 'one-click-unsubscribe');
      expect(oneClick).toMatchObject({ status: 'fail', fix: expect.stringContaining('List-Unsubscribe-Post') });
      // The lookups failed: authentication is undecided, not failed.
      expect(messageReport.authentication.status).toBe('inconclusive');
      for (const id of ['spf-or-dkim', 'spf-and-dkim', 'dmarc-policy']) {
        expect(messageReport.bulkSender.requirements.find((requirement: Requirement) => requirement.id === id)?.status).toBe('inconclusive');
      }
    });

    it('an HTML email has messageReport null', async () => {
      const response = await request(api.url).post('/api/preview').send({ html: CLEAN_EMAIL }).expect(200);
      expect(response.body.messageReport).toBeNull();
    });

    it('a message that is not one, a boundary bomb and nested parts past the limit are 422 compile_failed naming the reason, never a 500', async () => {
      const nested = (depth: number) => {
        let body = 'Content-Type: text/html\r\n\r\n<p>deep</p>\r\n';
        for (let level = depth; level > 0; level -= 1)
          body = `Content-Type: multipart/mixed; boundary="n${level}"\r\n\r\n--n${level}\r\n${body}--n${level}--\r\n`;
        return `From: a@b.example\r\nMIME-Version: 1.0\r\n${body}`;
      };
      const manyParts = `From: a@b.example\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="x"\r\n\r\n${'--x\r\nContent-Type: text/plain\r\n\r\nx\r\n'.repeat(5_000)}--x--\r\n`;
      const cases: Array<[string, string]> = [
        ['<html><body>markup, not a message</body></html>', 'not_a_message'],
        [nested(200), 'nesting_too_deep'],
        [manyParts, 'too_many_parts'],
      ];
      for (const [html, reason] of cases) {
        const response = await request(api.url).post('/api/preview').send({ html, format: 'eml' });
        expect([response.status, response.body.code, response.body.reason]).toEqual([422, 'compile_failed', reason]);
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(JSON.stringify(response.body)).not.toMatch(/at .*\.(js|ts):\d+/);
      }
      const viaGate = await gate({ html: '<p>no header block</p>', format: 'eml' });
      expect([viaGate.status, viaGate.body.code, viaGate.body.reason]).toEqual([422, 'compile_failed', 'not_a_message']);
    });
  });

  it('POST /api/fix fixes the decoded HTML part of a message and says so; a message without an HTML part is 422 with its reason', async () => {
    const response = await request(api.url).post('/api/fix').send({ html: bookingMessage(), format: 'eml' }).expect(200);
    expect(response.body).toMatchObject({ format: 'eml', patched: 'compiled-html', note: expect.stringContaining('decoded HTML part of your message') });
    // The answer is HTML (quoted-printable undone), not the message.
    expect(response.body.html).toContain('https://bistro.example.net/bookings?id=981&src=mail');
    expect(response.body.html).not.toContain('Content-Transfer-Encoding');
    const textOnly = 'From: a@b.example\r\nSubject: Plain\r\nContent-Type: text/plain\r\n\r\nNo HTML here.\r\n';
    const refused = await request(api.url).post('/api/fix').send({ html: textOnly, format: 'eml' });
    expect([refused.status, refused.body.code, refused.body.reason]).toEqual([422, 'compile_failed', 'no_html_part']);
  });

  describe('POST /api/gate: the message check', () => {
    it('fails bulk mail without one-click unsubscribe, names the requirement, and lists the undecided ones as notes', async () => {
      const response = await gate({ html: bookingMessage(), format: 'eml' }).expect(200);
      const verdict = response.body;
      expect(verdict.passed).toBe(false);
      // Regression runs only with a ref; message is among the default families.
      expect(verdict.checks).toEqual(['compatibility', 'content', 'message']);
      expect(verdict.failures).toEqual([
        expect.objectContaining({
          family: 'message',
          check: 'bulk-sender',
          requirement: 'one-click-unsubscribe',
          reason: expect.any(String),
          fix: expect.any(String),
        }),
      ]);
      expect(verdict.notes.map((note: { requirement?: string }) => note.requirement)).toEqual(expect.arrayContaining(['spf-or-dkim', 'dmarc-policy']));
      // The stored run answers the same verdict.
      const stored = await request(api.url).get(`/api/gate/runs/${verdict.runId}`).set('x-api-key', pro.key).expect(200);
      expect(stored.body.verdict).toEqual(verdict);
    });

    it('passes the same message when checks leave message out', async () => {
      const response = await gate({ html: bookingMessage(), format: 'eml', checks: ['compatibility', 'content'] }).expect(200);
      expect(response.body).toMatchObject({ passed: true, failures: [], notes: [], checks: ['compatibility', 'content'] });
    });

    it('a message without List-Unsubscribe is not bulk mail unless the request says bulk: true', async () => {
      const plain = bookingMessage({ listUnsubscribe: false });
      const transactional = await gate({ html: plain, format: 'eml' }).expect(200);
      expect(transactional.body).toMatchObject({ passed: true, failures: [] });
      expect(transactional.body.notes).toEqual([expect.objectContaining({ family: 'message', reason: expect.stringContaining('not bulk mail') })]);
      const bulk = await gate({ html: plain, format: 'eml', bulk: true }).expect(200);
      expect(bulk.body.passed).toBe(false);
      expect(bulk.body.failures).toContainEqual(expect.objectContaining({ family: 'message', requirement: 'one-click-unsubscribe' }));
      // The analysis honoured it too: the stored preview's report judges the message bulk.
      const preview = await request(api.url).get(`/api/preview/${bulk.body.previewId}`).set('x-api-key', pro.key).expect(200);
      expect(preview.body.messageReport.bulkSender.bulk).toBe(true);
    });

    it("an HTML email's default checks still pass, the message check with its note", async () => {
      const response = await gate({ html: CLEAN_EMAIL, ref: `messages-e2e/${Date.now()}` }).expect(200);
      expect(response.body).toMatchObject({ passed: true, failures: [], checks: ['compatibility', 'content', 'regression', 'message'] });
      expect(response.body.notes).toEqual([{ family: 'message', check: 'bulk-sender', reason: 'not a message: nothing to check' }]);
    });

    it('refuses a bulk that is not a boolean (400 validation_failed)', async () => {
      const response = await gate({ html: CLEAN_EMAIL, bulk: 'yes' }).expect(400);
      expect(response.body).toMatchObject({ code: 'validation_failed', errors: [expect.objectContaining({ field: 'bulk' })] });
    });
  });

  it('the OpenAPI document describes format eml, bulk, messageReport, the bulk-sender failure and the notes', async () => {
    const { components } = (await request(api.url).get('/api/openapi.json').expect(200)).body as {
      components: { schemas: Record<string, { properties: Record<string, { enum?: string[]; type?: string; items?: unknown }> }> };
    };
    expect(components.schemas.PreviewRequest.properties.format.enum).toContain('eml');
    expect(components.schemas.GateRequest.properties.format.enum).toContain('eml');
    expect(components.schemas.GateRequest.properties.bulk.type).toBe('boolean');
    expect(components.schemas.GateRequest.properties.checks.items).toMatchObject({ enum: ['compatibility', 'content', 'regression', 'message', 'visual'] });
    expect(components.schemas.PreviewResponse.properties).toHaveProperty('messageReport');
    expect(components.schemas.GateVerdictResponse.properties).toHaveProperty('notes');
    expect(components.schemas.BulkSenderFailureResponse.properties.requirement.enum).toContain('one-click-unsubscribe');
  });

  it("the dashboard shows a message's report on its preview page and the message check's failure and notes on the run page", async () => {
    // Signs in as the dashboard's form does: the form's cookie and CSRF token, then the key.
    const form = await request(api.url).get('/app/sign-in').expect(200);
    const cookieOf = (res: request.Response, name: string) =>
      ([] as string[])
        .concat(res.headers['set-cookie'] ?? [])
        .find((cookie) => cookie.startsWith(`${name}=`))!
        .split(';')[0];
    const csrf = /name="_csrf" value="([^"]+)"/.exec(form.text)![1];
    const signedIn = await request(api.url)
      .post('/app/sign-in')
      .set('Cookie', cookieOf(form, 'mp_sign_in'))
      .type('form')
      .send({ _csrf: csrf, key: pro.key })
      .expect(303);
    const session = cookieOf(signedIn, 'mp_session');

    const hostile = '<img src=x onerror=alert(3)>';
    const html = bookingMessage({
      headers: [`From: "Bistro ${hostile}" <bookings@bistro.example.net>`, 'Subject: Booked', 'Message-ID: <booking-983@bistro.example.net>'],
    });
    const verdict = (await gate({ html, format: 'eml' }).expect(200)).body;
    expect(verdict.passed).toBe(false);
    const previewPage = await request(api.url).get(`/app/previews/${verdict.previewId}`).set('Cookie', session).expect(200);
    expect(previewPage.text).toContain('<h2 id="message-title">The message</h2>');
    expect(previewPage.text).toContain('data-requirement="one-click-unsubscribe" data-status="fail"');
    expect(previewPage.text).toContain('Bistro &lt;img src=x onerror=alert(3)&gt;');
    expect(previewPage.text).not.toContain(hostile);
    const runPage = await request(api.url).get(`/app/gate/runs/${verdict.runId}`).set('Cookie', session).expect(200);
    expect(runPage.text).toContain('message / bulk-sender');
    expect(runPage.text).toContain('requirement: one-click-unsubscribe');
    expect(runPage.text).toContain('<h2 id="notes-title">Notes (');
  });

  it('the share page shows the message report, hostile header values as text', async () => {
    const hostile = '<img src=x onerror=alert(1)>';
    const html = bookingMessage({
      headers: [
        `From: "Bistro ${hostile}" <bookings@bistro.example.net>`,
        `Subject: Booked <script>alert(2)</script>`,
        'Date: Fri, 27 Nov 2026 10:00:00 +0000',
        'Message-ID: <booking-982@bistro.example.net>',
      ],
    });
    const preview = await request(api.url).post('/api/preview').set('x-api-key', pro.key).send({ html, format: 'eml', title: 'Booking' }).expect(200);
    const share = await request(api.url).post('/api/share').set('x-api-key', pro.key).send({ previewId: preview.body.id }).expect(201);
    const page = await request(api.url).get(new URL(share.body.url).pathname).expect(200);
    expect(page.text).toContain('<h2 id="message-title">The message</h2>');
    expect(page.text).toContain('data-requirement="one-click-unsubscribe" data-status="fail"');
    expect(page.text).toContain('Bistro &lt;img src=x onerror=alert(1)&gt;');
    expect(page.text).toContain('Booked &lt;script&gt;alert(2)&lt;/script&gt;');
    expect(page.text).not.toContain(hostile);
    expect(page.text).not.toContain('<script>alert(2)');
  });
});
