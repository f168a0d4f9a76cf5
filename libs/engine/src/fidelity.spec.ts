import { checkFidelity, fixturesTheIdentityPasses, identityOutput } from './fidelity';
import { CLIENT_IDS } from './clients/email-client';
import { CLIENT_MODELS } from './clients/models/client-models';

describe('client fidelity: every documented behavior of every client model', () => {
  const results = checkFidelity();

  it('every shown behavior has a fixture a client that returns the email untouched fails (the fixture tests something)', () => {
    expect(fixturesTheIdentityPasses()).toEqual([]);
  });

  it('the identity serializes the email as a browser does and reports nothing', () => {
    expect(identityOutput('<table><tr><td style="height:40px">x</td></tr></table>')).toEqual({
      html: '<html><head></head><body><table><tbody><tr><td style="height:40px">x</td></tr></tbody></table></body></html>',
      dark: '<html><head></head><body><table><tbody><tr><td style="height:40px">x</td></tr></tbody></table></body></html>',
      findings: [],
    });
  });

  it.each(results.filter((r) => r.status !== 'documented').map((r) => [`${r.client} ${r.behavior} (${r.case})`, r] as const))('%s', (_name, result) => {
    expect(result.failures).toEqual([]);
    expect(result.status).toBe('PASS');
  });

  it('gives every client a model with a dark behavior, sources and a check date', () => {
    for (const client of CLIENT_IDS) {
      const model = CLIENT_MODELS[client];
      expect(model.client).toBe(client);
      expect(model.checkedAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(model.behaviors.filter((b) => b.kind === 'dark' && !b.alternative)).toHaveLength(1);
      for (const behavior of model.behaviors) {
        expect(behavior.evidence.length).toBeGreaterThan(0);
        for (const evidence of behavior.evidence) {
          expect(evidence.url).toMatch(/^https:\/\//);
          expect(evidence.date).toMatch(/^\d{4}(-\d{2}){0,2}$/);
        }
      }
    }
  });

  it('keeps behavior ids unique per client', () => {
    for (const client of CLIENT_IDS) {
      const ids = CLIENT_MODELS[client].behaviors.map((b) => b.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });
});
