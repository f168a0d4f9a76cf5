import { advertisedSchema, ArgumentValidator } from './argument-validation';
import { TOOL_INPUTS } from './tool-inputs';

describe('ArgumentValidator', () => {
  const validator = new ArgumentValidator();
  const fields = (args: unknown, tool: keyof typeof TOOL_INPUTS = 'analyze_email') => validator.check(TOOL_INPUTS[tool], args).map((error) => error.field);

  it('accepts arguments that follow the schema', () => {
    expect(validator.check(TOOL_INPUTS.analyze_email, { html: '<p>hi</p>', format: 'mjml', clients: ['gmail-web'], detail: 'full' })).toEqual([]);
    expect(validator.check(TOOL_INPUTS.list_clients, {})).toEqual([]);
  });

  it('names each bad field as the HTTP 400s do', () => {
    expect(fields({})).toEqual(['html']);
    expect(fields({ html: '<p>hi</p>', clients: ['gmail-web', 'lotus-notes'], extra: true }).sort()).toEqual(['clients.1', 'extra']);
    expect(fields({ html: '<p>hi</p>', clients: ['gmail-web', 'gmail-web'] })).toEqual(['clients']);
    expect(fields({ html: 'x', threshold: 101, ref: 'a b', checks: ['spelling'] }, 'gate_email').sort()).toEqual(['checks.0', 'ref', 'threshold']);
  });

  it('lists the valid client ids for an unknown one', () => {
    const [error] = validator.check(TOOL_INPUTS.analyze_email, { html: 'x', clients: ['lotus-notes'] });
    expect(error.message).toContain('outlook-windows-legacy');
  });

  it('counts html in UTF-8 bytes, as the API does: 300,000 two-byte characters are over 500 KB', () => {
    expect(fields({ html: 'é'.repeat(300_000) })).toEqual(['html']);
    expect(fields({ html: 'e'.repeat(300_000) })).toEqual([]);
    expect(fields({ before: 'x', after: 'é'.repeat(256_001) }, 'diff_emails')).toEqual(['after']);
  });

  it('advertises the byte limit in words, never as a keyword clients do not know', () => {
    const advertised = JSON.stringify(advertisedSchema(TOOL_INPUTS.preview_email));
    expect(advertised).not.toContain('maxUtf8Bytes');
    expect(advertisedSchema(TOOL_INPUTS.preview_email).properties!.html.description).toMatch(/500 KB/);
  });
});
