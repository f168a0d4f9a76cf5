import type { StoredRenderedReports } from '@mailproof/contracts';
import { divergenceOf, referenceShots } from './gate-visual.reader';

const url = (name: string) => `http://127.0.0.1:3000/screenshots/${name.repeat(64).slice(0, 64)}.png`;

describe('referenceShots', () => {
  it("finds each viewport's and scheme's reference with the scale it was painted at, and no client's shot", () => {
    expect(
      referenceShots({ 'reference-wide-light': url('a'), 'reference-wide-dark': url('b'), 'reference-mobile-light': url('d'), 'gmail-web-light': url('c') }),
    ).toEqual({
      'wide-light': { url: url('a'), scale: 1 },
      'wide-dark': { url: url('b'), scale: 1 },
      'mobile-light': { url: url('d'), scale: 2 },
    });
    expect(referenceShots({ 'gmail-web-light': url('c'), 'reference-print-light': url('e') })).toEqual({});
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
