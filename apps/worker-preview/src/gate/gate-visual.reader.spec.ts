import type { StoredRenderedReports } from '@mailproof/contracts';
import { divergenceOf, referenceShots } from './gate-visual.reader';

const url = (name: string) => `http://127.0.0.1:3000/screenshots/${name.repeat(64).slice(0, 64)}.png`;

describe('referenceShots', () => {
  it('takes the wide reference of each scheme (device scale 1) over a mobile one, and none when there is no reference', () => {
    expect(referenceShots({ 'reference-light': url('a'), 'reference-dark': url('b'), 'gmail-web-light': url('c') })).toEqual({
      light: { url: url('a'), scale: 1 },
      dark: { url: url('b'), scale: 1 },
    });
    expect(referenceShots({ 'reference-mobile-light': url('d'), 'reference-wide-light': url('e') })).toEqual({ light: { url: url('e'), scale: 1 } });
    expect(referenceShots({ 'reference-mobile-dark': url('f') })).toEqual({ dark: { url: url('f'), scale: 2 } });
    expect(referenceShots({ 'gmail-web-light': url('c') })).toEqual({});
    expect(referenceShots(null)).toEqual({});
  });
});

describe('divergenceOf', () => {
  const reports = {
    overflowReport: null,
    mobileContrast: null,
    visualReport: {
      references: { wide: null, mobile: null },
      clients: [],
      divergence: {
        'gmail-web': { light: { score: 3, regions: [] } },
        'outlook-windows-legacy': { light: { score: 40, regions: [] }, dark: { score: 42, regions: [] } },
      },
    },
  } satisfies StoredRenderedReports;

  it('keeps the checked clients the report measured, and is empty without a report or a divergence', () => {
    expect(divergenceOf(reports, ['outlook-windows-legacy', 'apple-mail-ios', 'not-a-client'])).toEqual({
      'outlook-windows-legacy': { light: { score: 40, regions: [] }, dark: { score: 42, regions: [] } },
    });
    expect(divergenceOf(null, ['gmail-web'])).toEqual({});
    expect(divergenceOf({ ...reports, visualReport: { references: { wide: null, mobile: null }, clients: [] } }, ['gmail-web'])).toEqual({});
  });
});
