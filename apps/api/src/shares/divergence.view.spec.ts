import type { VisualReport } from '@mailproof/contracts';
import { clientsByDivergence, comparedShotFigure, divergenceReportItem, referenceShotUrl } from './divergence.view';

const INJECTED = '<img src=x onerror="alert(1)">';

/** visualReport.divergence as visual-core stores it, with hostile selectors and causes. */
const DIVERGENCE: NonNullable<VisualReport['divergence']> = {
  'gmail-web': {
    light: {
      score: 12.5,
      regions: [
        {
          box: { x: 40, y: 120, width: 300, height: 80 },
          kind: 'layout',
          elements: [{ selector: `table > tr > td.col${INJECTED}`, line: 14 }],
          cause: { message: `the two columns stack: display:flex is removed ${INJECTED}`, property: 'display', behaviour: 'gmail-strips-flex' },
        },
        { box: { x: 0, y: 0, width: 800, height: 10 }, kind: 'color', elements: [{ selector: 'body', line: null }] },
      ],
    },
    dark: { score: 30, regions: [] },
  },
  'outlook-windows-legacy': { light: { score: 55, regions: [] } },
  'apple-mail-ios': { light: { score: 0, regions: [] }, dark: { score: 2, regions: [] } },
};

describe('divergence on the share and preview pages', () => {
  it('orders clients by their worse scheme, most divergent first', () => {
    expect(clientsByDivergence(DIVERGENCE).map((c) => [c.clientId, c.worst])).toEqual([
      ['outlook-windows-legacy', 55],
      ['gmail-web', 30],
      ['apple-mail-ios', 2],
    ]);
    const item = divergenceReportItem(DIVERGENCE, (id) => id);
    expect(item.indexOf('outlook-windows-legacy: 55 light')).toBeLessThan(item.indexOf('gmail-web: 12.5 light, 30 dark'));
    expect(divergenceReportItem(undefined, (id) => id)).toBe('');
  });

  it('finds the reference of the viewport a client is painted in', () => {
    const shots = { 'reference-mobile-light': '/m.png', 'reference-wide-light': '/w.png' };
    expect(referenceShotUrl(shots, 'apple-mail-ios', 'light')).toBe('/m.png');
    expect(referenceShotUrl(shots, 'gmail-web', 'light')).toBe('/w.png');
    expect(referenceShotUrl(shots, 'gmail-web', 'dark')).toBeUndefined();
    expect(referenceShotUrl(shots, 'not-a-client', 'light')).toBeUndefined();
  });

  it('draws each region as a box in the painted page coordinates, labelled with its kind, and lists elements, lines and causes as escaped text', () => {
    const figure = comparedShotFigure({
      clientId: 'gmail-web',
      clientName: 'Gmail',
      scheme: 'light',
      url: '/screenshots/a.png',
      referenceUrl: '/screenshots/r.png',
      divergence: DIVERGENCE['gmail-web']!.light,
    });
    // Gmail (webmail) is painted 800 CSS px wide: the overlay's coordinates are that page's.
    expect(figure).toContain('<svg class="regions-overlay" viewBox="0 0 800 1" preserveAspectRatio="xMinYMin meet" font-size="22"');
    expect(figure).toContain('<g class="region region-layout"><rect x="40" y="120" width="300" height="80"/><text x="40" y="115">1 Layout</text></g>');
    expect(figure).toContain('<g class="region region-color"><rect x="0" y="0" width="800" height="10"/><text x="0" y="30">2 Colour</text></g>');
    expect(figure).toContain('divergence 12.5/100</span>, 2 regions');
    expect(figure).toContain('<code>table &gt; tr &gt; td.col&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</code> <span class="meta">line 14</span>');
    expect(figure).toContain('Cause: the two columns stack: display:flex is removed &lt;img');
    expect(figure).toContain('(display; gmail-strips-flex)');
    expect(figure).not.toContain(INJECTED);
    // The slider: a labelled native range (keyboard operable), shown by the page's script.
    expect(figure).toContain(
      '<div class="compare-control" hidden><label for="cmp-gmail-web-light">Reference to Gmail</label><input type="range" id="cmp-gmail-web-light" min="0" max="100"',
    );
    expect(figure).toContain('<img class="compare-reference" src="/screenshots/r.png" alt="The email as written (reference), light mode"');
    // Nothing positioned with a style attribute: the dashboard's pages allow no inline styles.
    expect(figure).not.toMatch(/style=/);
  });

  it('uses the phone width for mobile clients and keeps a plain screenshot without reference or divergence', () => {
    const mobile = comparedShotFigure({
      clientId: 'apple-mail-ios',
      clientName: 'Apple Mail (iOS)',
      scheme: 'dark',
      url: '/a.png',
      divergence: { score: 3, regions: [{ box: { x: 10, y: 5, width: 20, height: 20 }, kind: 'color', elements: [] }] },
    });
    expect(mobile).toContain('viewBox="0 0 390 1"');
    expect(mobile).not.toContain('type="range"');
    expect(mobile).toContain('<text x="10" y="45">1 Colour</text>');
    const plain = comparedShotFigure({ clientId: 'gmail-web', clientName: 'Gmail', scheme: 'dark', url: '/g.png' });
    expect(plain).toBe('<figure><img src="/g.png" alt="Gmail in dark mode (screenshot)" loading="lazy"><figcaption>Dark</figcaption></figure>');
  });
});
