import type { Command } from 'commander';
import { CANIEMAIL_VERSION, clientSummaries, listTrackedProperties, type SupportLevel, type TrackedProperty } from '@mailproof/engine';
import { printTable } from './output';

interface ClientsOptions {
  json?: boolean;
  properties?: boolean;
}

const LEGEND_PER_LINE = 6;
const SUPPORT_MARK: Record<SupportLevel, string> = { supported: 'y', partial: 'a', unsupported: 'n', unknown: '.' };

/** `mailproof clients`: the 21 clients the engine analyzes, optionally with per-property support. */
export function registerClientsCommand(program: Command): void {
  program
    .command('clients')
    .description('list the email clients Mailproof analyzes (ids for --clients)')
    .option('--properties', 'also list every tracked CSS property with its support in each client')
    .option('--json', 'print { clients[, properties, caniemail] } as JSON')
    .action((options: ClientsOptions) => {
      const clients = clientSummaries();
      if (options.json) {
        const extra = options.properties ? { properties: listTrackedProperties(), caniemail: CANIEMAIL_VERSION } : {};
        console.log(JSON.stringify({ clients, ...extra }));
        return;
      }
      printTable(clients.map(({ id, name, category, engine, darkModel, modelCheckedAt }) => ({ id, name, category, engine, darkModel, modelCheckedAt })));
      if (options.properties)
        printPropertyMatrix(
          listTrackedProperties(),
          clients.map((client) => client.id),
        );
    });
}

/** One line per property, one column per client (numbered, with a legend), caniemail's y/a/n marks. */
function printPropertyMatrix(properties: readonly TrackedProperty[], clientIds: readonly (keyof TrackedProperty['support'])[]): void {
  const numberWidth = String(clientIds.length).length;
  const nameWidth = Math.max('property'.length, ...properties.map((p) => p.property.length));
  console.log('');
  console.log(`${properties.length} tracked CSS properties (caniemail data of ${CANIEMAIL_VERSION.lastUpdate})`);
  console.log('y supported, a partial, n not supported, . no caniemail data');
  const legend = clientIds.map((id, index) => `${String(index + 1).padStart(numberWidth)} ${id}`);
  for (let start = 0; start < legend.length; start += LEGEND_PER_LINE) console.log(legend.slice(start, start + LEGEND_PER_LINE).join(', '));
  console.log('');
  console.log(`${'property'.padEnd(nameWidth)}  ${clientIds.map((_, index) => String(index + 1).padStart(numberWidth)).join(' ')}`);
  for (const property of properties) {
    const marks = clientIds.map((id) => SUPPORT_MARK[property.support[id].level].padStart(numberWidth));
    console.log(`${property.property.padEnd(nameWidth)}  ${marks.join(' ')}`);
  }
}
