import { generateKeyPairSync } from 'node:crypto';
import { analyzeEmail } from '../analyze-email';
import { fixEmail } from '../autofix/fix-email';
import { auditDomain } from '../dns/audit-domain';
import type { DeliverabilityResult } from '../dns/deliverability-result';
import { StaticZoneResolver, type StaticZoneEntry } from '../dns/static-zone-resolver';
import { GMAIL_CLIP_LIMIT_BYTES } from '../reports/size-report';
import { evaluateAlignment, organizationalDomain } from './alignment';
import { MESSAGE_LIMITS } from '../limits';
import { MAX_SELECTORS_PER_DOMAIN, authenticationPlan, spfAuthorizesSenders, type MessageAuthenticationInput } from './authentication-report';
import { buildMessageReport } from './build-message-report';
import { readMessageFacts } from './message-facts';
import type { MessageReport } from './message-report';
import { parseMessage } from './parse-message';
import { textSimilarity } from './parts-report';
import { DEFAULT_HEADERS, NEWSLETTER_HTML, NEWSLETTER_TEXT, alternativeMessage, htmlPart, message, relatedMessage } from './testing/message-fixtures';

const PUBLIC_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

const ZONE: Record<string, StaticZoneEntry> = {
  'acme.example': { TXT: ['v=spf1 include:_spf.esp.example -all'], MX: [{ exchange: 'mx.acme.example', priority: 10 }] },
  'mx.acme.example': { A: ['192.0.2.10'] },
  '_spf.esp.example': { TXT: ['v=spf1 ip4:192.0.2.0/24 -all'] },
  's1._domainkey.acme.example': { TXT: [`v=DKIM1; k=rsa; p=${PUBLIC_KEY}`] },
  '_dmarc.acme.example': { TXT: ['v=DMARC1; p=none; adkim=r; aspf=s; rua=mailto:dmarc@acme.example'] },
  'bounce.esp.example': { TXT: ['v=spf1 ip4:198.51.100.0/24 -all'] },
  'nodmarc.example': { TXT: ['v=spf1 -all'] },
};

async function audit(domain: string, selectors: string[] = [], zone = ZONE): Promise<DeliverabilityResult> {
  return auditDomain(domain, new StaticZoneResolver(zone), { dkimSelectors: selectors });
}

const headersWith = (changes: Record<string, string | null>, base = DEFAULT_HEADERS): string[] => {
  const kept = base.filter((line) => !Object.keys(changes).some((name) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`)));
  return [...kept, ...Object.entries(changes).flatMap(([name, value]) => (value === null ? [] : [`${name}: ${value}`]))];
};

async function report(
  raw: string,
  options: { authentication?: MessageAuthenticationInput | null; bulk?: boolean; htmlText?: string | null } = {},
): Promise<MessageReport> {
  const parsed = await parseMessage(raw);
  return buildMessageReport(parsed, {
    htmlText: options.htmlText === undefined ? NEWSLETTER_TEXT : options.htmlText,
    bulk: options.bulk,
    authentication: options.authentication ?? null,
  });
}

const rules = (findings: Array<{ rule: string }>) => findings.map((found) => found.rule);
const requirement = (made: MessageReport, id: string) => made.bulkSender.requirements.find((item) => item.id === id)!;

describe('alignment', () => {
  it('relaxed alignment compares organizational domains from the public suffix list; strict compares names', () => {
    expect(organizationalDomain('mail.news.acme.co.uk')).toBe('acme.co.uk');
    expect(evaluateAlignment('mail.acme.example', 'acme.example', 'r')).toBe(true);
    expect(evaluateAlignment('mail.acme.example', 'acme.example', 's')).toBe(false);
    expect(evaluateAlignment('acme.example', 'acme.example', 's')).toBe(true);
    expect(evaluateAlignment('acme.co.uk', 'other.co.uk', 'r')).toBe(false);
    expect(evaluateAlignment('esp.example', 'acme.example', 'r')).toBe(false);
    expect(evaluateAlignment('', 'acme.example', 'r')).toBe(false);
  });
});

describe('headers report', () => {
  it('reads a complete message without findings', async () => {
    const made = await report(alternativeMessage());
    expect(made.headers).toMatchObject({
      from: { address: 'news@acme.example', name: 'Acme News', domain: 'acme.example' },
      messageId: '<20251007093000.1234@mail.acme.example>',
      subject: 'Your October update',
      mimeVersion: '1.0',
      listUnsubscribe: null,
    });
    expect(made.headers.findings).toEqual([]);
  });

  it.each([
    [{ From: null }, 'from-missing'],
    [{ From: 'a@acme.example, b@acme.example' }, 'from-multiple'],
    [{ From: 'not an address' }, 'from-invalid'],
    [{ From: '"paypal.com" <news@acme.example>' }, 'from-display-name-impersonation'],
    [{ From: '"support@bank.example" <news@acme.example>' }, 'from-display-name-impersonation'],
    [{ 'Reply-To': 'nobody' }, 'reply-to-invalid'],
    [{ 'Reply-To': 'help@helpdesk.example' }, 'reply-to-other-domain'],
    [{ Date: null }, 'date-missing'],
    [{ Date: 'yesterday at noon' }, 'date-invalid'],
    [{ 'Message-ID': null }, 'message-id-missing'],
    [{ 'Message-ID': 'abc123' }, 'message-id-invalid'],
    [{ Subject: null }, 'subject-missing'],
    [{ Subject: ' ' }, 'subject-empty'],
    [{ Subject: 'Caf\u00e9 news' }, 'subject-raw-8bit'],
    [{ Subject: 'x'.repeat(90) }, 'subject-long'],
    [{ Subject: 'x'.repeat(101) }, 'subject-too-long'],
    [{ 'MIME-Version': null }, 'mime-version-missing'],
    [{ 'List-Unsubscribe': 'https://acme.example/u' }, 'list-unsubscribe-invalid'],
    [{ 'List-Unsubscribe': '<https://acme.example/u>' }, 'list-unsubscribe-no-one-click'],
    [{ 'List-Unsubscribe': '<mailto:u@acme.example>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }, 'list-unsubscribe-one-click-no-https'],
    [{ 'List-Unsubscribe': '<https://acme.example/u>', 'List-Unsubscribe-Post': 'One-Click' }, 'list-unsubscribe-post-invalid'],
    [{ 'List-Unsubscribe': '<https://acme.example/u>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }, 'list-unsubscribe-not-signed'],
    [{ Precedence: 'bulk' }, 'precedence-noted'],
    [{ 'Feedback-ID': 'campaign42:acme:esp' }, 'feedback-id-noted'],
  ])('%j gives %s', async (changes, rule) => {
    const made = await report(alternativeMessage(headersWith(changes)));
    expect(rules(made.headers.findings)).toEqual([rule]);
  });

  it('counts the Subject in code points, warns past 100 (inbox lists cut it) and accepts a folded Subject over 998', async () => {
    const subjectFinding = async (subject: string) =>
      (await report(alternativeMessage(headersWith({ Subject: subject })))).headers.findings.find((item) => item.rule.startsWith('subject-'));
    // 60 emoji are 120 UTF-16 units but 60 characters: no finding.
    expect(await subjectFinding(`=?UTF-8?B?${Buffer.from('\u{1F600}'.repeat(60)).toString('base64')}?=`)).toBeUndefined();
    const folded = Array.from({ length: 15 }, () => 'word '.repeat(14).trim()).join('\r\n ');
    expect(await subjectFinding(folded)).toMatchObject({ rule: 'subject-too-long', severity: 'warning', message: expect.stringContaining('inbox lists') });
  });

  it.each(['"Node.js Weekly" <news@acme.example>', '"Mr.Smith at Acme" <news@acme.example>', '"Acme (acme.com)" <news@mail.acme.com>'])(
    'the display name of %s is no impersonation',
    async (from) => {
      expect((await report(alternativeMessage(headersWith({ From: from })))).headers.findings).toEqual([]);
    },
  );

  it('an encoded subject is fine; a display name of the same organization is no impersonation', async () => {
    const made = await report(alternativeMessage(headersWith({ Subject: '=?UTF-8?Q?Caf=C3=A9_news?=', From: '"news.acme.example" <news@mail.acme.example>' })));
    expect(made.headers.subject).toBe('Café news');
    expect(made.headers.findings).toEqual([]);
  });

  it('two From fields are from-multiple', async () => {
    const made = await report(alternativeMessage([...DEFAULT_HEADERS, 'From: other@acme.example']));
    expect(rules(made.headers.findings)).toEqual(['from-multiple']);
    expect(made.headers.from).toBeNull();
  });

  it('bulk mail without List-Unsubscribe is an error; List-Unsubscribe makes the message bulk', async () => {
    expect(rules((await report(alternativeMessage(), { bulk: true })).headers.findings)).toEqual(['list-unsubscribe-missing']);
    const listed = await report(alternativeMessage(headersWith({ 'List-Unsubscribe': '<https://acme.example/u>, <mailto:u@acme.example>' })));
    expect(listed.bulkSender.bulk).toBe(true);
    expect(listed.headers.listUnsubscribe).toEqual({
      uris: ['https://acme.example/u', 'mailto:u@acme.example'],
      https: 'https://acme.example/u',
      mailto: 'mailto:u@acme.example',
      oneClick: false,
    });
    expect(listed.headers.findings).toEqual([expect.objectContaining({ rule: 'list-unsubscribe-no-one-click', severity: 'error' })]);
  });

  it('one-click headers signed by a DKIM signature whose h= covers both have no finding; a signature that omits them is an error', async () => {
    const oneClick = { 'List-Unsubscribe': '<https://acme.example/u>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
    const signed = await report(
      alternativeMessage(
        headersWith({
          ...oneClick,
          'DKIM-Signature': 'v=1; a=rsa-sha256; d=acme.example; s=s1; h=from:subject:list-unsubscribe:\r\n\tlist-unsubscribe-post; bh=x; b=y',
        }),
      ),
    );
    expect(signed.headers.findings).toEqual([]);
    const unsigned = await report(
      alternativeMessage(headersWith({ ...oneClick, 'DKIM-Signature': 'v=1; a=rsa-sha256; d=acme.example; s=s1; h=from:subject; bh=x; b=y' })),
    );
    expect(unsigned.headers.findings).toEqual([expect.objectContaining({ rule: 'list-unsubscribe-not-signed', severity: 'error' })]);
  });
});

describe('parts report', () => {
  it('lists the HTML and text parts, with the text close to the HTML', async () => {
    const made = await report(alternativeMessage());
    expect(made.parts.html).toEqual({ path: '2', bytes: NEWSLETTER_HTML.length, charset: 'utf-8', clippedByGmail: false });
    expect(made.parts.text).toMatchObject({ path: '1' });
    expect(made.parts.text!.similarity).toBeGreaterThan(0.9);
    expect(made.parts.findings).toEqual([]);
  });

  it('text-alternative-missing and text-alternative-differs', async () => {
    expect(rules((await report(message(htmlPart(NEWSLETTER_HTML)))).parts.findings)).toEqual(['text-alternative-missing']);
    const viewOnline = await report(alternativeMessage(DEFAULT_HEADERS, NEWSLETTER_HTML, 'View this email in your browser.'));
    expect(rules(viewOnline.parts.findings)).toEqual(['text-alternative-differs']);
    expect(viewOnline.parts.text!.similarity).toBeLessThan(0.5);
  });

  it('html-clipped-by-gmail past the clip size', async () => {
    const big = NEWSLETTER_HTML.replace('</body>', `<p>${'word '.repeat(GMAIL_CLIP_LIMIT_BYTES / 5)}</p></body>`);
    const made = await report(alternativeMessage(DEFAULT_HEADERS, big));
    expect(made.parts.html!.clippedByGmail).toBe(true);
    expect(rules(made.parts.findings)).toContain('html-clipped-by-gmail');
  });

  it('resolves cid images, reports the missing one and the unreferenced one, and lists attachments apart', async () => {
    const made = await report(relatedMessage());
    expect(made.parts.inlineImages.map(({ path, contentId, referenced }) => ({ path, contentId, referenced }))).toEqual([
      { path: '1.2', contentId: 'logo@acme.example', referenced: true },
      { path: '1.3', contentId: 'spare@acme.example', referenced: false },
    ]);
    expect(made.parts.attachments.map((part) => part.filename)).toEqual(['prices.pdf']);
    expect(made.parts.unresolvedCids).toEqual(['missing@acme.example']);
    expect(rules(made.parts.findings)).toEqual(['text-alternative-missing', 'cid-unresolved', 'inline-image-unreferenced', 'attachments-present']);
  });

  it('attachment-blocked-type for an executable', async () => {
    const raw = relatedMessage().replace(/prices\.pdf/g, 'setup.exe');
    expect(rules((await report(raw)).parts.findings)).toContain('attachment-blocked-type');
  });

  it('textSimilarity: 1 for the same words, 0 for none shared', () => {
    expect(textSimilarity('Hello world, hello', 'hello HELLO world')).toBe(1);
    expect(textSimilarity('alpha beta', 'gamma delta')).toBe(0);
    expect(textSimilarity('', 'x')).toBe(0);
  });
});

describe('authentication and the bulk-sender checklist', () => {
  const signedHeaders = (domain = 'acme.example', extra: Record<string, string | null> = {}) =>
    headersWith({
      'List-Unsubscribe': '<https://acme.example/u>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'DKIM-Signature': `v=1; a=rsa-sha256; d=${domain}; s=s1; h=from:subject:list-unsubscribe:list-unsubscribe-post; bh=x; b=y`,
      'Return-Path': '<bounce@bounce.esp.example>',
      ...extra,
    });

  async function lookups(raw: string, dkim: MessageAuthenticationInput['dkim'], zone = ZONE): Promise<MessageAuthenticationInput> {
    const plan = authenticationPlan(readMessageFacts(await parseMessage(raw)));
    const audits: MessageAuthenticationInput['audits'] = {};
    for (const { domain, dkimSelectors } of plan.domains) audits[domain] = await audit(domain, dkimSelectors, zone);
    return { audits, dkim };
  }

  it('plans the From, Return-Path and signing domains with their selectors', async () => {
    const facts = readMessageFacts(await parseMessage(alternativeMessage(signedHeaders('mail.acme.example'))));
    expect(authenticationPlan(facts)).toEqual({
      fromDomain: 'acme.example',
      domains: [
        { domain: 'acme.example', dkimSelectors: [] },
        { domain: 'bounce.esp.example', dkimSelectors: [] },
        { domain: 'mail.acme.example', dkimSelectors: ['s1'] },
      ],
    });
  });

  it('a verified, aligned signature with SPF and DMARC meets every requirement', async () => {
    const raw = alternativeMessage(signedHeaders());
    const input = await lookups(raw, [{ domain: 'acme.example', selector: 's1', result: 'pass', message: 'verified' }]);
    const made = await report(raw, { authentication: input });
    expect(made.authentication).toMatchObject({
      status: 'pass',
      fromDomain: 'acme.example',
      dmarc: { policy: 'none', adkim: 'r', aspf: 's' },
      dkim: [{ domain: 'acme.example', selector: 's1', result: 'pass', aligned: true }],
      spfAligned: false,
    });
    expect(made.authentication.findings).toEqual([]);
    expect(made.bulkSender.bulk).toBe(true);
    expect(made.bulkSender.requirements.map((item) => [item.id, item.status])).toEqual([
      ['spf-or-dkim', 'pass'],
      ['spf-and-dkim', 'pass'],
      ['dmarc-policy', 'pass'],
      ['dmarc-alignment', 'pass'],
      ['one-click-unsubscribe', 'pass'],
      ['valid-from', 'pass'],
      ['valid-message-id', 'pass'],
      ['tls', 'info'],
    ]);
    expect(made.bulkSender.met).toBe(true);
    expect(requirement(made, 'tls').reason).toContain('out of scope: a message file cannot show how it is transmitted');
  });

  it('a signature that does not verify fails DKIM and alignment, with a fix', async () => {
    const raw = alternativeMessage(signedHeaders());
    const made = await report(raw, {
      authentication: await lookups(raw, [{ domain: 'acme.example', selector: 's1', result: 'fail', message: 'body hash did not verify' }]),
    });
    expect(rules(made.authentication.findings)).toEqual(['dkim-signature-fails', 'dmarc-not-aligned']);
    expect(requirement(made, 'spf-and-dkim')).toMatchObject({ status: 'fail', fix: expect.any(String) });
    expect(requirement(made, 'spf-or-dkim').status).toBe('pass');
    expect(requirement(made, 'dmarc-alignment').status).toBe('fail');
    expect(made.bulkSender.met).toBe(false);
  });

  it('a signing domain of another organization verifies but does not align', async () => {
    const raw = alternativeMessage(signedHeaders('esp.example'));
    const made = await report(raw, { authentication: await lookups(raw, [{ domain: 'esp.example', selector: 's1', result: 'pass', message: 'verified' }]) });
    expect(made.authentication.dkim[0]).toMatchObject({ result: 'pass', aligned: false });
    expect(requirement(made, 'dmarc-alignment').status).toBe('fail');
  });

  it('no DMARC record fails dmarc-policy; an SPF-less envelope domain fails SPF', async () => {
    const raw = alternativeMessage(signedHeaders('acme.example', { 'Return-Path': '<b@nodmarc.example>' }));
    const zone = { ...ZONE, '_dmarc.acme.example': { TXT: ['not dmarc'] }, 'nodmarc.example': { TXT: ['unrelated'] } };
    const made = await report(raw, { authentication: await lookups(raw, [{ domain: 'acme.example', selector: 's1', result: 'pass', message: 'ok' }], zone) });
    expect(requirement(made, 'dmarc-policy').status).toBe('fail');
    expect(requirement(made, 'spf-and-dkim').status).toBe('fail');
    expect(rules(made.authentication.findings)).toEqual(['spf-missing', 'dmarc-missing']);
  });

  it('failed lookups make authentication and its requirements inconclusive, never failed', async () => {
    const raw = alternativeMessage(signedHeaders());
    const failing: Record<string, StaticZoneEntry> = Object.fromEntries(Object.keys(ZONE).map((name) => [name, { fail: 'timeout' }]));
    const made = await report(raw, {
      authentication: await lookups(raw, [{ domain: 'acme.example', selector: 's1', result: 'temperror', message: 'timeout' }], failing),
    });
    expect(made.authentication.status).toBe('inconclusive');
    for (const id of ['spf-or-dkim', 'spf-and-dkim', 'dmarc-policy', 'dmarc-alignment']) expect(requirement(made, id).status).toBe('inconclusive');
    expect(made.bulkSender.met).toBeNull();
    const none = await report(raw, { authentication: null });
    expect(none.authentication).toMatchObject({ status: 'inconclusive', audit: null });
  });

  it('an unsigned message whose domain publishes a key warns (the sending system may sign it); one-click unsigned warns', async () => {
    const raw = alternativeMessage(signedHeaders('acme.example', { 'DKIM-Signature': null, 'Return-Path': null }));
    const input = await lookups(raw, []);
    input.audits['acme.example'] = await audit('acme.example', ['s1']);
    const made = await report(raw, { authentication: input });
    expect(requirement(made, 'spf-and-dkim').status).toBe('warn');
    expect(requirement(made, 'dmarc-alignment').status).toBe('warn');
    expect(requirement(made, 'one-click-unsubscribe').status).toBe('warn');
    expect(made.authentication.status).toBe('warn');
  });

  it.each([
    ['no List-Unsubscribe', { 'List-Unsubscribe': null, 'List-Unsubscribe-Post': null }, 'fail', 'no List-Unsubscribe header'],
    ['no https URI', { 'List-Unsubscribe': '<mailto:u@acme.example>' }, 'fail', 'no https URI'],
    ['no One-Click', { 'List-Unsubscribe-Post': null }, 'fail', 'One-Click is missing'],
    [
      'an h= that leaves them out',
      { 'DKIM-Signature': 'v=1; a=rsa-sha256; d=acme.example; s=s1; h=from:subject; bh=x; b=y' },
      'fail',
      'does not cover List-Unsubscribe',
    ],
  ])('one-click-unsubscribe of bulk mail fails with %s', async (_name, changes, expected, reason) => {
    const raw = alternativeMessage(signedHeaders('acme.example', changes));
    const made = await report(raw, {
      bulk: true,
      authentication: await lookups(raw, [{ domain: 'acme.example', selector: 's1', result: 'pass', message: 'ok' }]),
    });
    expect(requirement(made, 'one-click-unsubscribe')).toMatchObject({ status: expected, reason: expect.stringContaining(reason), fix: expect.any(String) });
  });

  it('an unsigned message whose domain publishes no key fails DKIM (dkim-missing); a missing Message-ID warns', async () => {
    const raw = alternativeMessage(signedHeaders('acme.example', { 'DKIM-Signature': null, 'Message-ID': null }));
    const withoutKey = { ...ZONE, 's1._domainkey.acme.example': {} };
    const made = await report(raw, { authentication: await lookups(raw, [], withoutKey) });
    expect(rules(made.authentication.findings)).toContain('dkim-missing');
    expect(requirement(made, 'spf-and-dkim').status).toBe('fail');
    expect(requirement(made, 'spf-or-dkim').status).toBe('pass');
    expect(requirement(made, 'valid-message-id').status).toBe('warn');
  });

  it('bulk-only requirements are info for mail that is not bulk; valid-from and valid-message-id apply to all', async () => {
    const raw = alternativeMessage(headersWith({ 'Message-ID': 'nope' }));
    const made = await report(raw, { authentication: await lookups(raw, []) });
    expect(made.bulkSender.bulk).toBe(false);
    for (const id of ['spf-and-dkim', 'dmarc-policy', 'dmarc-alignment', 'one-click-unsubscribe'])
      expect(requirement(made, id)).toMatchObject({ status: 'info', fix: null });
    expect(requirement(made, 'one-click-unsubscribe').reason).toContain('not judged bulk');
    expect(requirement(made, 'valid-message-id').status).toBe('fail');
    expect(requirement(made, 'valid-from').status).toBe('pass');
    const noFrom = await report(alternativeMessage(headersWith({ From: null })));
    expect(requirement(noFrom, 'valid-from').status).toBe('fail');
    expect(noFrom.authentication.status).toBe('fail');
  });

  const signature = (domain: string, selector = 's1') =>
    `DKIM-Signature: v=1; a=rsa-sha256; d=${domain}; s=${selector}; h=from:subject:list-unsubscribe:list-unsubscribe-post; bh=x; b=y`;
  const manySigned = (signatures: string[]) =>
    alternativeMessage([...headersWith({ 'Return-Path': '<bounce@bounce.esp.example>', 'List-Unsubscribe': '<https://acme.example/u>' }), ...signatures]);

  it('more DKIM-Signature fields than the limit are refused (too_many_dkim_signatures); selectors per domain stay under the audit job limit', async () => {
    const signatures = Array.from({ length: MESSAGE_LIMITS.maxDkimSignatures + 1 }, (_, index) => signature('acme.example', `s${index}`));
    await expect(parseMessage(manySigned(signatures))).rejects.toMatchObject({ reason: 'too_many_dkim_signatures' });
    const facts = readMessageFacts(await parseMessage(manySigned(signatures.slice(1))));
    facts.dkimSignatures = Array.from({ length: 30 }, (_, index) => ({ domain: 'acme.example', selector: `k${index}`, signedHeaders: [] }));
    const planned = authenticationPlan(facts).domains.find((entry) => entry.domain === 'acme.example')!;
    expect(planned.dkimSelectors).toHaveLength(MAX_SELECTORS_PER_DOMAIN);
    expect(MAX_SELECTORS_PER_DOMAIN).toBeLessThan(20);
  });

  it('a signature past the domain bound is neutral "not checked": it cannot turn a failing From-domain signature into inconclusive', async () => {
    const raw = manySigned(['acme.example', 'd1.example', 'd2.example', 'd3.example'].map((domain) => signature(domain)));
    const input = await lookups(raw, [
      { domain: 'acme.example', selector: 's1', result: 'fail', message: 'signature did not verify' },
      { domain: 'd3.example', selector: 's1', result: 'temperror', message: 'TXT s1._domainkey.d3.example: no answer' },
    ]);
    expect(Object.keys(input.audits)).not.toContain('d3.example');
    const made = await report(raw, { authentication: input });
    expect(made.authentication.dkim.map((check) => [check.domain, check.result])).toEqual([
      ['acme.example', 'fail'],
      ['d3.example', 'neutral'],
    ]);
    expect(made.authentication.dkim[1].message).toContain('not checked');
    expect(requirement(made, 'spf-and-dkim').status).toBe('fail');
    expect(requirement(made, 'spf-and-dkim').reason).toContain('no DKIM signature verifies (acme.example: fail)');
  });

  it('DKIM passes when an aligned signature verifies, whatever the others say; a planned key lookup that failed stays inconclusive', async () => {
    const raw = manySigned([signature('esp.example'), signature('acme.example')]);
    const made = await report(raw, {
      authentication: await lookups(raw, [
        { domain: 'esp.example', selector: 's1', result: 'temperror', message: 'timeout' },
        { domain: 'acme.example', selector: 's1', result: 'pass', message: 'verified' },
      ]),
    });
    expect(requirement(made, 'spf-and-dkim').reason).toContain('the DKIM signature of acme.example verifies');
    expect(requirement(made, 'dmarc-alignment').status).toBe('pass');
    const undecided = await report(raw, {
      authentication: await lookups(raw, [
        { domain: 'esp.example', selector: 's1', result: 'temperror', message: 'timeout' },
        { domain: 'acme.example', selector: 's1', result: 'fail', message: 'bad' },
      ]),
    });
    expect(requirement(undecided, 'spf-and-dkim').status).toBe('inconclusive');
  });

  it.each([
    ['fail', 'fail', 'does not verify', ['list-unsubscribe-not-signed']],
    ['temperror', 'inconclusive', 'could not be verified', []],
    ['pass', 'pass', 'signed by a DKIM signature that verifies', []],
  ] as const)('one-click counts as signed only when the covering signature verifies: %s is %s', async (result, status, reason, headerRules) => {
    const raw = alternativeMessage(signedHeaders());
    const made = await report(raw, { authentication: await lookups(raw, [{ domain: 'acme.example', selector: 's1', result, message: result }]) });
    expect(requirement(made, 'one-click-unsubscribe')).toMatchObject({ status, reason: expect.stringContaining(reason) });
    expect(rules(made.headers.findings).filter((rule) => rule === 'list-unsubscribe-not-signed')).toEqual(headerRules);
  });

  it('one-click is inconclusive when no verification was made (a local analysis)', async () => {
    const made = await report(alternativeMessage(signedHeaders()), { authentication: null });
    expect(requirement(made, 'one-click-unsubscribe').status).toBe('inconclusive');
    expect(rules(made.headers.findings)).not.toContain('list-unsubscribe-not-signed');
  });

  it('an SPF record that authorizes nobody (v=spf1 -all) does not meet SPF, with a reason', async () => {
    const raw = alternativeMessage(signedHeaders('acme.example', { 'Return-Path': '<b@nodmarc.example>' }));
    const made = await report(raw, { authentication: await lookups(raw, [{ domain: 'acme.example', selector: 's1', result: 'pass', message: 'ok' }]) });
    expect(requirement(made, 'spf-and-dkim')).toMatchObject({ status: 'fail', reason: expect.stringContaining('authorizes no sending server') });
    expect(rules(made.authentication.findings)).toContain('spf-missing');
    expect(spfAuthorizesSenders('v=spf1 -all')).toBe(false);
    expect(spfAuthorizesSenders('v=spf1 ?all')).toBe(false);
    expect(spfAuthorizesSenders('v=spf1 -ip4:192.0.2.1 ~all')).toBe(false);
    expect(spfAuthorizesSenders('v=spf1 include:_spf.esp.example -all')).toBe(true);
    expect(spfAuthorizesSenders('v=spf1 +ip6:2001:db8::/32 -all')).toBe(true);
    expect(spfAuthorizesSenders('v=spf1 redirect=_spf.acme.example')).toBe(true);
    expect(spfAuthorizesSenders('v=spf1 mx/24 -all')).toBe(true);
  });
});

describe('format eml in the analysis and the fixes', () => {
  const html = '<table><tr><td style="display:flex;border-radius:4px;background-image:url(https://acme.example/a.png)">Hi</td></tr></table>';

  it("analyzes a message's HTML part exactly as HTML: the same findings, fixes and scores", () => {
    expect(analyzeEmail(html, { format: 'eml' })).toEqual(analyzeEmail(html, { format: 'html' }));
  });

  it('fixes it as HTML, answering the decoded part (compiled-html)', () => {
    const asHtml = fixEmail(html, { format: 'html' });
    const asEml = fixEmail(html, { format: 'eml' });
    expect(asEml.html).toBe(asHtml.html);
    expect(asEml.applied).toEqual(asHtml.applied);
    expect(asEml.patched).toBe('compiled-html');
  });
});
