import { CANIEMAIL } from '../caniemail-data';
import type { ClientId } from '../email-client';
import { EMAIL_CLIENTS } from '../email-clients';

/** One caniemail note as it concerns one of our clients: generated from the package, never copied. */
export interface CaniemailNoteRow {
  /** `css-height#1@yahoo-mail`: the decisions file's key for this row (`css-height#1` decides every client of the note). */
  key: string;
  noteKey: string;
  slug: string;
  note: string;
  client: ClientId;
  featureTitle: string;
  /** The feature's last test date in caniemail. */
  lastTestDate: string;
  /** The note is cited by the newest result of one of the client's caniemail platforms (else only by older ones). */
  current: boolean;
  /** caniemail's flag in the newest cell that cites the note (`y`, `a`, `n`), or in the newest older one. */
  flag: string;
}

/** A version cell cites note `n` as `#n` after its flag: `a #1 #3`. */
function citesNote(cell: string, note: string): boolean {
  return cell.split(/\s+/).includes(`#${note}`);
}

/**
 * Every (note, client) pair where a version cell of one of the client's caniemail platforms cites the note.
 * Superhuman has no caniemail data, so no rows.
 */
export function caniemailNoteRows(): CaniemailNoteRow[] {
  const rows: CaniemailNoteRow[] = [];
  for (const feature of CANIEMAIL.data) {
    if (!feature.notes_by_num) continue;
    for (const note of Object.keys(feature.notes_by_num)) {
      for (const client of EMAIL_CLIENTS) {
        let cited = false;
        let current = false;
        let flag = '';
        for (const source of client.supportSources) {
          const [family, platform] = source.split('.');
          const cells = feature.stats[family]?.[platform];
          if (!cells) continue;
          const versions = Object.keys(cells);
          versions.forEach((version, index) => {
            const cell = cells[version].trim();
            if (!citesNote(cell, note)) return;
            cited = true;
            const newest = index === versions.length - 1;
            if (newest) current = true;
            if (newest || !current) flag = cell.split(/\s+/)[0];
          });
        }
        if (!cited) continue;
        const noteKey = `${feature.slug}#${note}`;
        rows.push({
          key: `${noteKey}@${client.id}`,
          noteKey,
          slug: feature.slug,
          note,
          client: client.id,
          featureTitle: feature.title,
          lastTestDate: feature.last_test_date,
          current,
          flag,
        });
      }
    }
  }
  return rows;
}
