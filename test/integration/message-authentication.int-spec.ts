import { generateKeyPairSync } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { dkimSign } from 'mailauth/lib/dkim/sign';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import type { MessageReport } from '@mailproof/engine';
import { migrateDatabase } from '@mailproof/persistence';
import { startWorkerDns } from '../../apps/worker-dns/src/start-worker-dns';
import { alternativeMessage, DEFAULT_HEADERS } from '../../libs/engine/src/message/testing/message-fixtures';
import { startTestApi, type RunningApi } from '../utils/api-server';
import type { AppProcess } from '../utils/app-process';
import { createTestAccount, openDatabase } from '../utils/database';
import { healthyDomain } from '../utils/dns-fixture-zones';
import { openQueues } from '../utils/queues';
import { testConfig } from '../utils/test-config';
import { UnboundServer } from '../utils/unbound-server';
import { startWorkerPreview } from '../utils/worker-preview';

/**
 * A message's authentication end to end (docs/messages.md): the API and worker-dns in-process, the built
 * worker-preview as a process (npm run build first), over real PostgreSQL, Redis and BullMQ, and unbound on
 * loopback serving a DKIM key generated here. The preview worker audits the From domain through dns-audit jobs and verifies the DKIM-Signature against the key those
 * audits read: a signed message passes, the same message with a changed body fails, and a From domain whose
 * DNS never answers leaves authentication inconclusive, never failed.
 */
describe('message authentication against a real DNS server', () => {
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKey = keys.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  const privateKey = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  let unbound: UnboundServer;
  let config: ReturnType<typeof testConfig>;
  let queues: ReturnType<typeof openQueues>;
  let db: DataSource;
  let api: RunningApi;
  let previewWorker: AppProcess;
  let dnsWorker: INestApplicationContext;
  let account: { accountId: string; key: string };

  beforeAll(async () => {
    unbound = await UnboundServer.start({
      records: {
        '_spf.provider.test': { TXT: ['v=spf1 ip4:198.51.100.0/24 ~all'] },
        ...healthyDomain('signed.test', publicKey, {
          's1._domainkey.signed.test': { TXT: [`v=DKIM1; k=rsa; p=${publicKey}`] },
          '_dmarc.signed.test': { TXT: ['v=DMARC1; p=none; rua=mailto:dmarc@signed.test'] },
        }),
      },
      silentZones: ['slow.test'],
    });
    config = testConfig({ DNS_SERVERS: unbound.dohServer, DNS_PROTOCOL: 'http', DNS_TIMEOUT_MS: 400, DNS_TRIES: 1, PREVIEW_BUDGET_MS: 30_000 });
    queues = openQueues(config);
    await migrateDatabase(config.database.url);
    db = await openDatabase(config);
    account = await createTestAccount(db, 'pro');
    dnsWorker = await startWorkerDns(config);
    // The built worker, as deployed: the analysis in a thread, the lookups and the DKIM check on its main thread.
    previewWorker = await startWorkerPreview(config, queues, { PREVIEW_BUDGET_MS: '30000', IMAGE_WEIGHT_CHECK: 'off' });
    api = await startTestApi(config);
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    await previewWorker?.stop();
    await dnsWorker?.close();
    await queues?.closeAll();
    if (db) {
      await db.query(`DELETE FROM domain_audits WHERE job_id LIKE 'dns-audit.run-message-%'`);
      await db.query('DELETE FROM accounts WHERE id = $1', [account.accountId]);
      await db.destroy();
    }
    await unbound?.stop();
  });

  const headers = (from: string) => [
    ...DEFAULT_HEADERS.filter((line) => !line.startsWith('From:')),
    `From: "Signed News" <news@${from}>`,
    'List-Unsubscribe: <https://signed.test/unsubscribe?u=1>',
    'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
  ];

  async function signed(from: string): Promise<string> {
    const message = alternativeMessage(headers(from));
    const signature = await dkimSign(message, {
      signatureData: [{ signingDomain: from, selector: 's1', privateKey }],
      // mailauth reads the list as h= is written, a colon-separated string, whatever its types say (an array is
      // ignored for its default list, which lacks List-Unsubscribe-Post).
      headerList: 'From:To:Subject:Date:Message-ID:List-Unsubscribe:List-Unsubscribe-Post',
      // Its types also want the first signature's fields at the top level, which the code reads from signatureData.
    } as never);
    return signature.signatures + message;
  }

  async function messageReport(raw: string, key: string | null = account.key): Promise<MessageReport> {
    const post = request(api.url).post('/api/preview');
    const response = await (key ? post.set('x-api-key', key) : post).send({ html: raw, format: 'eml', clients: ['gmail-web'] });
    expect(response.status).toBe(200);
    return response.body.messageReport as MessageReport;
  }

  const status = (report: MessageReport, id: string) => report.bulkSender.requirements.find((requirement) => requirement.id === id)?.status;

  it('verifies a signature made with the published key: pass, aligned, and every bulk-sender requirement met', async () => {
    const report = await messageReport(await signed('signed.test'));
    expect(report.authentication).toMatchObject({
      status: 'pass',
      fromDomain: 'signed.test',
      audit: { spf: 'pass', dkim: 'pass', dmarc: expect.any(String) },
      dmarc: { policy: 'none', adkim: 'r', aspf: 'r' },
      dkim: [{ domain: 'signed.test', selector: 's1', result: 'pass', aligned: true }],
    });
    expect(report.headers.findings).toEqual([]);
    expect(report.bulkSender).toMatchObject({ bulk: true, met: true });
    expect(status(report, 'one-click-unsubscribe')).toBe('pass');
    expect(status(report, 'dmarc-alignment')).toBe('pass');
  }, 60_000);

  it('a body changed after signing fails verification, and the checklist says so', async () => {
    const raw = (await signed('signed.test')).replace('faster exports', 'slower exports');
    const report = await messageReport(raw);
    expect(report.authentication.dkim).toEqual([
      expect.objectContaining({ domain: 'signed.test', result: 'fail', message: expect.stringContaining('body hash') }),
    ]);
    expect(report.authentication.findings.map((finding) => finding.rule)).toContain('dkim-signature-fails');
    expect(status(report, 'spf-and-dkim')).toBe('fail');
    expect(report.bulkSender.met).toBe(false);
  }, 60_000);

  it('an anonymous preview asks no DNS (audits are for accounts): inconclusive, saying so', async () => {
    const report = await messageReport(await signed('signed.test'), null);
    expect(report.authentication).toMatchObject({ status: 'inconclusive', audit: null, dkim: [] });
    expect(report.authentication.findings[0].message).toContain('API key');
    const audits = await db.query(`SELECT count(*)::int AS n FROM domain_audits WHERE job_id LIKE 'dns-audit.run-message-%' AND account_id IS NULL`);
    expect(audits).toEqual([{ n: 0 }]);
  }, 60_000);

  it('a From domain whose DNS never answers makes authentication inconclusive, never failed', async () => {
    const report = await messageReport(await signed('slow.test'));
    expect(report.authentication.status).toBe('inconclusive');
    for (const id of ['spf-or-dkim', 'spf-and-dkim', 'dmarc-policy', 'dmarc-alignment']) expect(status(report, id)).toBe('inconclusive');
    expect(report.bulkSender.met).toBeNull();
    // What the message alone shows is still decided; signed one-click needs the signature verified, so it waits too.
    expect(status(report, 'valid-from')).toBe('pass');
    expect(status(report, 'one-click-unsubscribe')).toBe('inconclusive');
  }, 60_000);
});
