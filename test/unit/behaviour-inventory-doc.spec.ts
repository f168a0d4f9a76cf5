import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_IDS } from '../../libs/engine/src/clients/email-client';
import { getClient } from '../../libs/engine/src/clients/email-clients';
import { inventoryMarkdown, inventorySummaryMarkdown } from '../../libs/engine/src/clients/inventory/inventory';

const dir = join(__dirname, '..', '..', 'docs', 'inventory');

describe('docs/inventory/ (regenerate: npm run check:fidelity -- --write-inventory)', () => {
  const names = Object.fromEntries(CLIENT_IDS.map((id) => [id, getClient(id).name])) as Record<(typeof CLIENT_IDS)[number], string>;

  it.each(CLIENT_IDS.map((id) => [id]))('the file of %s is the inventory the engine builds now', (client) => {
    const generated = inventoryMarkdown(client, names[client]);
    expect(generated).toContain(`(\`${client}\`)`);
    expect(readFileSync(join(dir, `${client}.md`), 'utf8')).toBe(generated);
  });

  it('README.md is the summary the engine builds now', () => {
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe(inventorySummaryMarkdown(names));
  });
});
