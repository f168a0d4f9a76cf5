import { fixOutcomeBody } from './fix-result';

const engineResult = (patched: 'source' | 'compiled-html') => ({
  html: '<p>x</p>',
  patched,
  diff: '',
  applied: [],
  skipped: [],
  before: { score: 90, errors: 1, warnings: 0 },
  after: { score: 100, errors: 0, warnings: 0 },
  introduced: [],
  resolved: {},
});

describe('fixOutcomeBody', () => {
  it("answers a message's fixes as its decoded HTML part, with a note that says so", () => {
    const body = fixOutcomeBody(engineResult('compiled-html'), 'eml');
    expect(body).toMatchObject({ format: 'eml', patched: 'compiled-html' });
    expect(body.note).toMatch(/decoded HTML part of your message/);
  });

  it('keeps the template note for the compiled formats and no note for patched HTML', () => {
    expect(fixOutcomeBody(engineResult('compiled-html'), 'jsx').note).toMatch(/compiled HTML of your jsx template/);
    expect(fixOutcomeBody(engineResult('source'), 'html')).not.toHaveProperty('note');
  });
});
