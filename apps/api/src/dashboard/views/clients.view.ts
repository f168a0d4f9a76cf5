import type { ClientSummary } from '@mailproof/engine';
import { html } from './html';
import { page, type PageContext } from './layout';

const SOURCES = [
  ['caniemail', 'caniemail notes'],
  ['emailBugs', 'email-bugs issues'],
  ['vendor', 'vendor pages and code'],
] as const;

/**
 * The 21 clients with their models: engine, dark model, when the model was checked, and the behaviour
 * inventory (docs/clients.md): how many documented behaviours are modeled, not modeled and not applicable,
 * and when each source was last read.
 */
export function clientsPage(context: PageContext, clients: readonly ClientSummary[]): string {
  const rows = clients.map(
    (client) => html`<tr id="client-${client.id}">
<th scope="row">${client.name} <code>${client.id}</code></th>
<td>${client.engine}</td>
<td>${client.darkModel}</td>
<td>${client.modelCheckedAt}</td>
<td>${client.behaviors}</td>
<td data-count="modeled">${client.inventory.modeled}</td>
<td data-count="not-modeled">${client.inventory.notModeled}</td>
<td data-count="not-applicable">${client.inventory.notApplicable}</td>
<td><ul>${SOURCES.map(([key, label]) => html`<li>${label}: <time datetime="${client.inventory.sourcesReadAt[key]}">${client.inventory.sourcesReadAt[key]}</time></li>`)}</ul></td>
</tr>`,
  );
  return page(
    'Clients',
    context,
    html`<h1>Clients</h1>
<p class="lead">What Mailproof knows about each client: its model (GET /api/clients/{id}/model) and its behaviour inventory, every documented behaviour from caniemail's notes, the email-bugs tracker and the vendors' own pages and code, each modeled, not modeled with a reason, or not applicable.</p>
<div class="card table-scroll"><table>
<caption>The 21 clients, their models and their behaviour inventories</caption>
<thead><tr><th scope="col">Client</th><th scope="col">Engine</th><th scope="col">Dark model</th><th scope="col">Model checked</th><th scope="col">Behaviours</th><th scope="col">Modeled</th><th scope="col">Not modeled</th><th scope="col">Not applicable</th><th scope="col">Sources last read</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`,
  );
}
