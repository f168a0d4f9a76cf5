import { buildDarkContrast } from './dark-contrast';

const LIGHT_ON_DARK = '<html><body style="background:#121212;color:#eeeeee"><p>Readable</p></body></html>';
const INVERTED_BADLY = '<html><body style="background:#121212"><p style="color:#333333">Dark grey on near black</p></body></html>';
const DARK_MEDIA =
  '<html><head><style>@media (prefers-color-scheme: dark) { .card { background:#000000 !important } }</style></head><body><div class="card" style="background:#ffffff;color:#111111">Text</div></body></html>';

describe('buildDarkContrast', () => {
  it('reports per client the texts below WCAG AA in its dark variant, with both colours', () => {
    const report = buildDarkContrast({ 'gmail-ios': INVERTED_BADLY, 'gmail-web': LIGHT_ON_DARK });
    expect(Object.keys(report.clients)).toEqual(['gmail-ios', 'gmail-web']);
    expect(report.clients['gmail-web']).toEqual({ checked: 1, issues: [], omitted: 0 });
    expect(report.clients['gmail-ios'].issues).toEqual([
      expect.objectContaining({ rule: 'dark-low-contrast', severity: 'error', color: '#333333', background: '#121212', text: 'Dark grey on near black', required: 4.5 }),
    ]);
    expect(report.clients['gmail-ios'].issues[0].element).toBe('<p style="color:#333333">');
    expect(report).toMatchObject({ total: 1, worstClient: 'gmail-ios' });
  });

  it("applies the email's own dark media query only for clients that honour it", () => {
    const report = buildDarkContrast({ 'apple-mail-ios': DARK_MEDIA, 'outlook-web': DARK_MEDIA });
    expect(report.clients['apple-mail-ios'].issues.map((issue) => [issue.color, issue.background])).toEqual([['#111111', '#000000']]);
    expect(report.clients['outlook-web'].issues).toEqual([]);
  });

  it('is empty for no variants', () => {
    expect(buildDarkContrast({})).toEqual({ clients: {}, total: 0, worstClient: null });
  });
});
