import { CLIENT_IDS } from '../../../clients/email-client';
import { parseEmail } from '../../../parse/parse-email';
import { buildFindingLedger } from '../../finding-ledger';
import { fixEmail } from '../../fix-email';
import type { FixResult, FixTier } from '../../fix-model';

/** A whole email around a `<style>` block and a body, as the layout rules' tests write them. */
export function emailPage(style: string, body: string, head = ''): string {
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<title>t</title>\n${head}<style>\n${style}\n</style>\n</head>\n<body>\n${body}\n</body>\n</html>\n`;
}

/** fixEmail with the layout tier only (or the given tiers), and the fixes of one rule picked out. */
export function fixWith(
  html: string,
  rule: string,
  tiers: readonly FixTier[] = ['layout'],
): FixResult & { ours: FixResult['applied']; refused: FixResult['skipped'] } {
  const result = fixEmail(html, { tiers });
  return { ...result, ours: result.applied.filter((fix) => fix.rule === rule), refused: result.skipped.filter((skip) => skip.rule === rule) };
}

/** What a reader gets from an email: its visible text and its links (href and text), from the engine's own reading. */
export function textAndLinks(html: string): { text: string; links: string[] } {
  const { report } = buildFindingLedger(parseEmail(html), 'html', CLIENT_IDS);
  return { text: report.visibleText, links: report.links.map((link) => `${link.href} ${link.text}`) };
}

/**
 * The checks every layout fix must pass: nothing introduced, visible text and links unchanged, and
 * fixing the result again applies nothing and changes nothing.
 */
export function expectSoundFix(html: string, result: FixResult, tiers: readonly FixTier[] = ['layout']): void {
  expect(result.introduced).toEqual([]);
  expect(textAndLinks(result.html)).toEqual(textAndLinks(html));
  const again = fixEmail(result.html, { tiers });
  expect(again.applied).toEqual([]);
  expect(again.html).toBe(result.html);
}
