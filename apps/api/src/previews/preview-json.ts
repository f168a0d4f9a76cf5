import type { PreviewEntity } from '@mailproof/persistence';

/**
 * The preview response as JSON text, built around the stored result without parsing it: the
 * result can be megabytes (21 transformed documents and 21 dark variants), and re-serialising
 * it on every read would cost more than the database round trip.
 */
export function previewJson(preview: Pick<PreviewEntity, 'id' | 'resultJson' | 'screenshots'>): string {
  const stored = preview.resultJson ?? '{}';
  const head = `{"id":${JSON.stringify(preview.id)}`;
  const screenshots = preview.screenshots && Object.keys(preview.screenshots).length > 0 ? `,"screenshots":${JSON.stringify(preview.screenshots)}` : '';
  const rest = stored.length > 2 ? `,${stored.slice(1)}` : '}';
  return head + screenshots + rest;
}
