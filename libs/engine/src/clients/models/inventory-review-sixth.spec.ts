import { analyzeEmail } from '../../analyze-email';
import type { ClientId } from '../email-client';
import { REVIEW_SIXTH_BEHAVIORS } from './inventory-review-sixth.model';

/**
 * The behaviours the review of the sixth pass added (inventory-review-sixth.model.ts): where a client supports what
 * the email uses, none gives a finding; where the documented limit is hit, only the clients that have it react.
 */
const NEW_RULES = new Set<string>();
for (const behaviors of Object.values(REVIEW_SIXTH_BEHAVIORS)) for (const behavior of behaviors ?? []) NEW_RULES.add(behavior.id);

const analyze = (html: string) => analyzeEmail(html, { reports: false });
const htmlOf = (html: string, client: ClientId): string => analyze(html).transforms.find((view) => view.clientId === client)?.html ?? '';
const newFindings = (html: string) =>
  analyze(html)
    .cssReport.filter((f) => NEW_RULES.has(f.rule))
    .map((f) => `${f.client} ${f.rule}`);

const page = (css: string, inline = 'background:#ff0000') =>
  `<html><head><style>${css}</style></head><body><div class="hero" style="${inline}">Sale</div></body></html>`;

describe('review of the sixth pass: no finding where the client supports what the email uses', () => {
  it.each([
    ['a background !important with a space', page('.hero{background:#008000 !important}')],
    ['a background-image !important with a space', page(".hero{background-image:url('https://example.com/a.png') !important}")],
    ['another property !important without a space', page('.hero{color:#ffffff!important;display:block!important}')],
    ['a background without !important', page('.hero{background:#008000}')],
    ['an inline background !important without a space (not tested by the sources)', '<div style="background:#008000!important">Sale</div>'],
  ])('%s', (_name, html) => {
    expect(newFindings(html)).toEqual([]);
  });

  it('reports a background !important without a space for Yahoo and AOL only, and keeps the declaration', () => {
    const html = page(".hero{background:#008000!important}.hero2{background-image:url('https://example.com/a.png')!important}");
    const clients = [
      ...new Set(
        analyze(html)
          .cssReport.filter((f) => NEW_RULES.has(f.rule))
          .map((f) => f.client),
      ),
    ].sort();
    expect(clients).toEqual(['aol', 'yahoo-mail', 'yahoo-mail-android', 'yahoo-mail-ios']);
    const yahoo = htmlOf(html, 'yahoo-mail');
    expect(yahoo).toContain('background:#008000;');
    expect(yahoo).not.toMatch(/#008000\s*!important/);
    expect(htmlOf(html, 'apple-mail-macos')).toMatch(/#008000\s*!important/);
  });
});
