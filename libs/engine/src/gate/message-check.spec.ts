import type { BulkSenderRequirement, BulkSenderRequirementId, MessageCheckStatus } from '../message/message-report';
import { gateSummary, gateResultOf } from './gate-summary';
import { gateVerdict } from './gate-verdict';
import { BULK_SENDER_REQUIREMENT_IDS, messageCheck, NOT_A_MESSAGE_REASON, NOT_BULK_REASON, type GateMessageInput } from './message-check';
import { analyze, email } from './testing/gate-fixtures';
import { buildMessageReport } from '../message/build-message-report';
import { parseMessage } from '../message/parse-message';
import { DEFAULT_HEADERS, alternativeMessage } from '../message/testing/message-fixtures';

/** A checklist where every requirement is met (TLS out of scope), with the given statuses overriding. */
function checklist(bulk: boolean, statuses: Partial<Record<BulkSenderRequirementId, MessageCheckStatus>> = {}): GateMessageInput {
  const requirements: BulkSenderRequirement[] = BULK_SENDER_REQUIREMENT_IDS.map((id) => {
    const status = statuses[id] ?? (id === 'tls' ? 'info' : 'pass');
    return { id, providers: ['gmail', 'yahoo'], status, reason: `${id} is ${status}`, fix: status === 'fail' ? `fix ${id}` : null };
  });
  const decided = requirements.filter((r) => r.status !== 'info');
  const met = decided.some((r) => r.status === 'inconclusive') ? null : decided.every((r) => r.status !== 'fail');
  return { bulkSender: { bulk, requirements, met } };
}

const html = analyze(email(), ['gmail-web']);

describe('messageCheck', () => {
  it('passes bulk mail that meets every requirement, with no failure and no note', () => {
    expect(messageCheck(checklist(true), false)).toEqual({ failures: [], notes: [] });
  });

  it('fails bulk mail (List-Unsubscribe present) on each unmet requirement, in the checklist order, with its reason and fix', () => {
    const outcome = messageCheck(checklist(true, { 'valid-message-id': 'fail', 'one-click-unsubscribe': 'fail' }), false);
    expect(outcome.failures).toEqual([
      {
        family: 'message',
        check: 'bulk-sender',
        requirement: 'one-click-unsubscribe',
        reason: 'one-click-unsubscribe is fail',
        fix: 'fix one-click-unsubscribe',
      },
      { family: 'message', check: 'bulk-sender', requirement: 'valid-message-id', reason: 'valid-message-id is fail', fix: 'fix valid-message-id' },
    ]);
    expect(outcome.notes).toEqual([]);
  });

  it('does not fail on an inconclusive requirement: it is listed as a note naming the requirement', () => {
    const outcome = messageCheck(checklist(true, { 'spf-and-dkim': 'inconclusive', 'dmarc-policy': 'inconclusive' }), false);
    expect(outcome.failures).toEqual([]);
    expect(outcome.notes).toEqual([
      { family: 'message', check: 'bulk-sender', requirement: 'spf-and-dkim', reason: 'could not be decided: spf-and-dkim is inconclusive' },
      { family: 'message', check: 'bulk-sender', requirement: 'dmarc-policy', reason: 'could not be decided: dmarc-policy is inconclusive' },
    ]);
  });

  it('warn and info requirements neither fail nor note', () => {
    expect(messageCheck(checklist(true, { 'valid-from': 'warn', tls: 'info' }), false)).toEqual({ failures: [], notes: [] });
  });

  it('mail that is not bulk passes with a note, whatever its checklist says', () => {
    const unmet = checklist(false, { 'one-click-unsubscribe': 'fail', 'dmarc-policy': 'fail' });
    expect(messageCheck(unmet, false)).toEqual({ failures: [], notes: [{ family: 'message', check: 'bulk-sender', reason: NOT_BULK_REASON }] });
  });

  it('the request saying bulk makes a message without List-Unsubscribe bulk (the real report, built with bulk true and false)', async () => {
    const parsed = await parseMessage(alternativeMessage());
    const plain = buildMessageReport(parsed, { htmlText: null, authentication: null, bulk: false });
    expect(messageCheck(plain, false)).toEqual({ failures: [], notes: [{ family: 'message', check: 'bulk-sender', reason: NOT_BULK_REASON }] });
    const bulk = buildMessageReport(parsed, { htmlText: null, authentication: null, bulk: true });
    const outcome = messageCheck(bulk, true);
    expect(outcome.failures.map((failure) => failure.requirement)).toEqual(['one-click-unsubscribe']);
    expect(outcome.notes.map((note) => note.requirement)).toEqual(['spf-or-dkim', 'spf-and-dkim', 'dmarc-policy', 'dmarc-alignment']);
  });

  it('checklist reasons and gate failures quote no header value: neither the local part of From nor the Message-ID', async () => {
    const headers = [
      ...DEFAULT_HEADERS.filter((line) => !/^(From|Message-ID):/i.test(line)),
      'From: "Private Person" <private.person-4711@acme.example>',
      'Message-ID: secret-tracking-id-0815',
      'List-Unsubscribe: <mailto:u@acme.example>',
    ];
    const made = buildMessageReport(await parseMessage(alternativeMessage(headers)), { htmlText: null, authentication: null });
    const failures = messageCheck(made, true).failures;
    expect(failures.map((failure) => failure.requirement)).toEqual(['one-click-unsubscribe', 'valid-message-id']);
    expect(made.bulkSender.requirements.find((item) => item.id === 'valid-from')!.reason).toContain('acme.example');
    for (const stored of [JSON.stringify(made.bulkSender), JSON.stringify(failures), JSON.stringify(gateSummary({ ...html, messageReport: made }))]) {
      expect(stored).not.toContain('private.person-4711');
      expect(stored).not.toContain('Private Person');
      expect(stored).not.toContain('secret-tracking-id-0815');
    }
  });

  it('an email that is not a message passes with the note "not a message"', () => {
    for (const input of [null, undefined]) {
      expect(messageCheck(input, true)).toEqual({ failures: [], notes: [{ family: 'message', check: 'bulk-sender', reason: NOT_A_MESSAGE_REASON }] });
    }
  });
});

describe('gateVerdict: message', () => {
  it('runs by default, last in family order; an HTML email passes it with its note', () => {
    const v = gateVerdict({ result: html });
    expect(v.checks).toEqual(['compatibility', 'content', 'regression', 'message']);
    expect(v.passed).toBe(true);
    expect(v.notes).toEqual([{ family: 'message', check: 'bulk-sender', reason: NOT_A_MESSAGE_REASON }]);
  });

  it('fails bulk mail on an unmet requirement after the other families, and passes it when message is not among the checks', () => {
    const result = { ...html, messageReport: checklist(true, { 'one-click-unsubscribe': 'fail' }) };
    const failing = gateVerdict({ result, options: { threshold: 100 } });
    expect(failing.passed).toBe(false);
    expect(failing.failures.at(-1)).toMatchObject({ family: 'message', check: 'bulk-sender', requirement: 'one-click-unsubscribe' });
    const without = gateVerdict({ result, options: { checks: ['compatibility', 'content'] } });
    expect(without).toMatchObject({ passed: true, failures: [], notes: [], checks: ['compatibility', 'content'] });
  });

  it('options.bulk holds a message without List-Unsubscribe to the requirements', () => {
    const result = { ...html, messageReport: checklist(false, { 'dmarc-alignment': 'fail' }) };
    expect(gateVerdict({ result, options: { checks: ['message'] } }).passed).toBe(true);
    expect(gateVerdict({ result, options: { checks: ['message'], bulk: true } }).failures).toEqual([
      { family: 'message', check: 'bulk-sender', requirement: 'dmarc-alignment', reason: 'dmarc-alignment is fail', fix: 'fix dmarc-alignment' },
    ]);
  });

  it('gives the same verdict on the stored gate summary as on the whole result', () => {
    const result = { ...html, messageReport: checklist(true, { 'valid-from': 'fail', 'spf-and-dkim': 'inconclusive' }) };
    const summary = JSON.parse(JSON.stringify(gateSummary(result)));
    expect(summary.messageReport).toEqual({ bulkSender: result.messageReport.bulkSender });
    expect(gateVerdict({ result: gateResultOf(summary) })).toEqual(gateVerdict({ result }));
    expect(gateSummary(html)).not.toHaveProperty('messageReport');
  });
});
