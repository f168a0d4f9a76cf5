import { analyzeEmail, renderClientViews, renderEmailViews } from './analyze-email';
import { LINE_ATTRIBUTE } from './transforms/render-template';

const EMAIL = `<!doctype html>
<html>
<head>
<meta name="color-scheme" content="light dark">
<style>
  .box { background: #ff0000; }
  @media (prefers-color-scheme: dark) { .box { background: #00ff00 !important; } }
</style>
</head>
<body>
<div class="box" style="display:flex;padding:8px">
  <p style="color:#333333">Hello</p>
</div>
</body>
</html>`;

const stripLines = (html: string): string => html.replace(new RegExp(` ${LINE_ATTRIBUTE}="\\d+"`, 'g'), '');

describe('renderClientViews', () => {
  const analysis = analyzeEmail(EMAIL);
  const views = renderClientViews(EMAIL);

  it('paints exactly the markup of the analysis, plus a source line on every start tag', () => {
    expect(views.map((v) => v.clientId)).toEqual(analysis.transforms.map((t) => t.clientId));
    for (const view of views) {
      const transform = analysis.transforms.find((t) => t.clientId === view.clientId)!;
      expect(stripLines(view.light)).toBe(transform.html);
      expect(stripLines(view.dark)).toBe(analysis.darkMode[view.clientId].html);
    }
  });

  it('annotates rewritten start tags too, with the line of the element in the source', () => {
    const gmail = views.find((v) => v.clientId === 'gmail-web')!;
    // Gmail inlines the <style> rule into the div's style attribute; the rewritten tag still says where it came from.
    expect(gmail.light).toMatch(/<div class="m_box" style="background: #ff0000;[^"]*" data-mp-line="11">/);
    expect(gmail.light).toMatch(/<p style="color:#333333" data-mp-line="12">/);
  });

  it("paints the dark variant under a dark scheme only for clients that apply the email's own dark rules", () => {
    const byId = new Map(views.map((v) => [v.clientId, v]));
    expect(byId.get('apple-mail-macos')!.darkUsesDarkScheme).toBe(true);
    expect(byId.get('gmail-web')!.darkUsesDarkScheme).toBe(false);
    expect(byId.get('outlook-windows-legacy')!.darkUsesDarkScheme).toBe(false);
  });

  it('renders only the clients asked for', () => {
    expect(renderClientViews(EMAIL, { clients: ['yahoo-mail', 'aol'] }).map((v) => v.clientId)).toEqual(['yahoo-mail', 'aol']);
  });
});

describe('renderEmailViews', () => {
  const views = renderEmailViews(EMAIL);

  it('gives the email as written, annotated like the client views: the reference rendering', () => {
    expect(views.reference).toMatch(/<div class="box" style="display:flex;padding:8px" data-mp-line="11">/);
    expect(views.reference).toContain('@media (prefers-color-scheme: dark) { .box { background: #00ff00 !important; } }');
    // The markup of the analysis with no client's rewrite: Superhuman's, which rewrites nothing here
    // (Apple Mail adds its own word-break style sheet).
    expect(stripLines(views.reference)).toBe(analyzeEmail(EMAIL).transforms.find((t) => t.clientId === 'superhuman')!.html);
  });

  it('is the very markup of a client that rewrites nothing, and not of one that rewrites', () => {
    const byId = new Map(views.clients.map((v) => [v.clientId, v]));
    expect(byId.get('superhuman')!.light).toBe(views.reference);
    expect(byId.get('apple-mail-macos')!.light).not.toBe(views.reference);
    expect(byId.get('gmail-web')!.light).not.toBe(views.reference);
    expect(views.clients).toEqual(renderClientViews(EMAIL));
  });
});
