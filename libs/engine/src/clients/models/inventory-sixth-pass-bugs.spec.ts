import { analyzeEmail } from '../../analyze-email';
import type { ClientId } from '../email-client';
import { SIXTH_PASS_BUG_BEHAVIORS } from './inventory-sixth-pass-bugs.model';

/**
 * The behaviours the email-bugs sweep added (inventory-sixth-pass-bugs.model.ts): where a client supports what the
 * email uses, none gives a finding; where the documented limit is hit, only the clients that have it react.
 */
const NEW_RULES = new Set<string>();
for (const behaviors of Object.values(SIXTH_PASS_BUG_BEHAVIORS)) for (const behavior of behaviors ?? []) NEW_RULES.add(behavior.id);

const analyze = (html: string) => analyzeEmail(html, { reports: false });
/** The rewritten markup one client serves for the email. */
function htmlOf(result: ReturnType<typeof analyze>, client: ClientId): string {
  return result.transforms.find((view) => view.clientId === client)?.html ?? '';
}
const newFindings = (html: string) =>
  analyze(html)
    .cssReport.filter((f) => NEW_RULES.has(f.rule))
    .map((f) => `${f.client} ${f.rule}`);

describe('inventory sixth pass (email-bugs sweep): no finding where the client supports what the email uses', () => {
  it.each([
    [
      'a web-hosted background image, quoted and not',
      '<table background="https://example.com/a.png"><tr><td style="background-image:url(https://example.com/b.png)">x</td></tr></table>',
    ],
    ['a cid: image in an <img>', '<p><img src="cid:logo@example.com" alt="Logo" width="120"></p>'],
    ['a background color only', '<table bgcolor="#102030"><tr><td style="background:#203040">x</td></tr></table>'],
    [
      'images that fit their container',
      '<img src="https://example.com/a.png" width="150" style="width:150px;max-width:100%" alt="A"><img src="https://example.com/b.png" alt="B">',
    ],
    ["an image's own max-width written !important", '<img src="https://example.com/a.png" width="600" style="width:100%;max-width:150px !important" alt="A">'],
    // Review of the email-bugs sweep: on a phone these paint the same with the app's max-width:100% as with their own.
    [
      'a full-width image whose own max-width is wider than a phone',
      '<img src="https://example.com/a.png" width="600" style="display:block;width:100%;max-width:600px" alt="A">',
    ],
    ['an image as wide as its own max-width', '<img src="https://example.com/a.png" width="148" style="max-width:148px" alt="A">'],
    [
      'an image narrower than its own max-width',
      '<img src="https://example.com/a.png" width="32" style="max-width:148px" alt="A"><img src="https://example.com/b.png" style="width:60px;max-width:600px" alt="B">',
    ],
  ])('%s', (_name, html) => {
    expect(newFindings(html)).toEqual([]);
  });

  it('reports each limit for the clients that have it, and only for them', () => {
    const html = `<table background="cid:bg@example.com"><tr><td style="background:#102030 url('cid:hero@example.com')">
<img src="https://example.com/a.png" width="600" style="width:100%;max-width:150px" alt="A"></td></tr></table>`;
    const found = analyze(html).cssReport.filter((f) => NEW_RULES.has(f.rule));
    const clientsOf = (rule: string) => [...new Set(found.filter((f) => f.rule === rule).map((f) => f.client))].sort();
    expect(clientsOf('yahoo-cid-background-not-shown')).toEqual(['aol', 'yahoo-mail']);
    expect(clientsOf('outlook-ios-image-max-width-reset')).toEqual(['outlook-ios']);
  });

  it('keeps the rest of a background shorthand and the web-hosted backgrounds in Yahoo', () => {
    const html = htmlOf(
      analyze(
        `<table background="cid:bg@example.com"><tr><td style="background:#102030 url('cid:a@example.com') no-repeat">x</td>
<td style="background-image:url('cid:b@example.com')">y</td><td background="https://example.com/c.png">z</td></tr></table>`,
      ),
      'yahoo-mail',
    );
    expect(html).not.toContain('cid:');
    expect(html).toContain('#102030');
    expect(html).toContain('background="https://example.com/c.png"');
  });

  it('names, in Outlook for iOS, only the images that grow past their own max-width on a phone', () => {
    const html = `<img src="https://example.com/a.png" style="max-width:150px" alt="no width">
<img src="https://example.com/b.png" width="400" style="max-width:200px" alt="wider attribute">
<img src="https://example.com/c.png" style="width:90%;max-width:40%" alt="percentages">
<img src="https://example.com/d.png" width="600" style="width:100%;max-width:600px" alt="full width">`;
    const found = analyze(html).cssReport.filter((f) => f.rule === 'outlook-ios-image-max-width-reset' && f.client === 'outlook-ios');
    // One finding for the rule, counting the three images that grow (the full-width one does not).
    expect(found.map((f) => [f.line, f.occurrences])).toEqual([[1, 3]]);
  });

  it("leaves an image's inline max-width written !important to win over Outlook for iOS's rule in the markup", () => {
    const html = htmlOf(analyze('<img src="https://example.com/a.png" style="max-width:150px !important" alt="A">'), 'outlook-ios');
    expect(html).toContain('img{max-width:100% !important}');
    expect(html).toContain('max-width:150px !important');
  });
});
