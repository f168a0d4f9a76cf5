import { clientSummaries } from '@mailproof/engine';
import { clientsPage } from './clients.view';

describe('the dashboard clients page', () => {
  const clients = clientSummaries();
  const text = clientsPage({ csrfToken: 'token', path: '/app/clients' }, clients);

  it("lists every client with its inventory's counts and the date each source was last read", () => {
    for (const client of clients) {
      const row = text.slice(text.indexOf(`<tr id="client-${client.id}">`), text.indexOf('</tr>', text.indexOf(`<tr id="client-${client.id}">`)));
      expect(row).toContain(`<td data-count="modeled">${client.inventory.modeled}</td>`);
      expect(row).toContain(`<td data-count="not-modeled">${client.inventory.notModeled}</td>`);
      expect(row).toContain(`<td data-count="not-applicable">${client.inventory.notApplicable}</td>`);
      expect(row).toContain(`email-bugs issues: <time datetime="${client.inventory.sourcesReadAt.emailBugs}">`);
      expect(row).toContain(`caniemail notes: <time datetime="${client.inventory.sourcesReadAt.caniemail}">`);
      expect(row).toContain(`vendor pages and code: <time datetime="${client.inventory.sourcesReadAt.vendor}">`);
    }
    expect(clients.find((c) => c.id === 'yahoo-mail')!.inventory.modeled).toBeGreaterThan(0);
    expect(text).toContain('aria-current="page">Clients</a>');
  });
});
