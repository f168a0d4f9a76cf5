import { CLIENT_IDS } from './email-client';
import { EMAIL_CLIENTS } from './email-clients';
import { getClientSupport } from './client-support';
import { listTrackedProperties } from './tracked-properties';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- caniemail's data file, read as JSON
const RAW = require('caniemail/caniemail.json') as { data: Array<{ slug: string; stats: Record<string, Record<string, Record<string, string>>> }> };

describe('clients', () => {
  it('has exactly the 21 client ids with the fields GET /api/clients lists', () => {
    expect(CLIENT_IDS).toHaveLength(21);
    expect(EMAIL_CLIENTS.map((c) => c.id)).toEqual([...CLIENT_IDS]);
    for (const client of EMAIL_CLIENTS) {
      expect(['webmail', 'desktop', 'mobile']).toContain(client.category);
      expect(client.name.length).toBeGreaterThan(0);
      expect(['WebKit', 'Blink', 'Word', 'Gecko']).toContain(client.engine);
      expect(client.renderer.length).toBeGreaterThan(0);
    }
    expect(EMAIL_CLIENTS.find((c) => c.id === 'gmail-ios')?.darkMode).toBe('full-inversion');
    expect(EMAIL_CLIENTS.find((c) => c.id === 'apple-mail-ios')?.darkMode).toBe('prefers-color-scheme');
  });

  it('tracks at least 298 CSS properties, each with support for every client', () => {
    const properties = listTrackedProperties();
    expect(properties.length).toBeGreaterThanOrEqual(298);
    for (const p of properties.slice(0, 50)) expect(Object.keys(p.support)).toEqual([...CLIENT_IDS]);
    const radius = properties.find((p) => p.property === 'border-radius');
    expect(radius?.support['outlook-windows-legacy'].level).toBe('unsupported');
    expect(properties.find((p) => p.property === 'border-top-left-radius')?.features).toEqual(['css-border-radius']);
  });

  it('reads the newest result of a platform, with its notes as text', () => {
    const flex = RAW.data.find((f) => f.slug === 'css-display-flex');
    const android = flex?.stats.gmail.android ?? {};
    const newest = android[Object.keys(android).pop() as string];
    const support = getClientSupport('css-display-flex', 'gmail-android');
    expect(support.level).toBe({ y: 'supported', a: 'partial', n: 'unsupported', u: 'unknown' }[newest[0]]);
    // caniemail's newest Gmail Android entry is partial with a note ("a #1"); its text becomes the notes.
    expect(newest).toContain('#');
    expect(support.notes.length).toBeGreaterThan(0);
  });

  it('combines Thunderbird macOS and Windows, worst wins', () => {
    for (const feature of RAW.data) {
      const mac = feature.stats.thunderbird?.macos;
      const win = feature.stats.thunderbird?.windows;
      const last = (r?: Record<string, string>): string | undefined => (r ? r[Object.keys(r).pop() as string][0] : undefined);
      const levels = [last(mac), last(win)].filter((l): l is string => l !== undefined && l !== 'u');
      const expected = levels.includes('n') ? 'unsupported' : levels.includes('a') ? 'partial' : levels.includes('y') ? 'supported' : 'unknown';
      expect({ slug: feature.slug, level: getClientSupport(feature.slug, 'thunderbird').level }).toEqual({ slug: feature.slug, level: expected });
    }
  });

  it('treats Superhuman (no caniemail data) as Chromium: supported', () => {
    expect(getClientSupport('css-display-grid', 'superhuman').level).toBe('supported');
    expect(EMAIL_CLIENTS.find((c) => c.id === 'superhuman')?.supportNote).toMatch(/Chromium/);
  });
});
