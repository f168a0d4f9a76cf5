/**
 * Contrast in each client's dark-mode variant: text whose contrast against its background falls below
 * WCAG AA once the client has inverted or restyled the email. The dark-mode pass hands over how each
 * variant paints colors (its recoloring, the email's own dark rules where the client honors them,
 * Outlook.com's data-ogsc/data-ogsb markers); the client's transform says which declarations it drops.
 * The email's color cascade is re-run per distinct variant; no variant HTML is parsed. Visibility and
 * text sizes are those of the email as written (dark mode changes neither).
 */
import { getTrackedFeature } from '../clients/feature-catalog';
import { CLIENT_IDS } from '../clients/email-client';
import { CLIENT_INDEX } from '../clients/email-clients';
import type { DarkColorHandover } from '../dark-mode/dark-mode-simulation';
import type { TransformContext } from '../transforms/client-transform';
import { ColorVariant, DropMasks, VariantColors } from './context/color-cascade';
import { ContrastIssues, type ContrastIssue } from './context/contrast-check';
import type { ReportContext } from './context/report-context';
import { compareIssues } from './context/report-issue';
import type { SheetRule } from './context/sheet-rules';

export interface DarkContrastClientReport {
  /** Text elements whose contrast was measured (images and gradients behind text cannot be). */
  checked: number;
  issues: ContrastIssue[];
  /** Issues beyond the per-client listing limit. */
  omitted: number;
}

export interface DarkContrastReport {
  clients: Record<string, DarkContrastClientReport>;
  /** Issues over all clients. */
  total: number;
  /** Client with the most low-contrast texts, or null when none has any. */
  worstClient: string | null;
}

export const DARK_CONTRAST_LISTING_LIMIT = 100;

/** Which clients drop which color declarations, read from the per-client transform masks. */
export function transformDropMasks(transform: TransformContext): DropMasks {
  // A client without <style> support removes every block (its top-level rules survive only as Gmail inlines them).
  const styleRemoved = getTrackedFeature('html-style')?.support.unsupportedMask ?? 0;
  const ruleMasks = new Map<SheetRule, number>();
  const ruleMask = (rule: SheetRule): number => {
    let mask = ruleMasks.get(rule);
    if (mask === undefined) {
      mask = styleRemoved | transform.cssNodeMask(rule.rule);
      for (const atRule of rule.ancestors) mask |= transform.cssNodeMask(atRule);
      ruleMasks.set(rule, mask);
    }
    return mask;
  };
  return {
    ruleDeclaration: (rule, index) => ruleMask(rule) | transform.cssNodeMask(rule.declarations[index].node),
    inlinedRuleDeclaration: (rule, index) => transform.cssNodeMask(rule.declarations[index].node),
    inlineDeclaration: (element, index) => {
      const declaration = transform.parsed.inlineStyles.get(element)?.declarations[index];
      return declaration ? transform.declarationMask(declaration) : 0;
    },
  };
}

/**
 * The variant of one client. Its key holds only what can change a color in this email: inlining
 * matters only when it changes a drop mask or the body's canvas, markers only when `[data-og…]` rules exist.
 */
function variantOf(handover: DarkColorHandover, inliningMatters: boolean, markerRules: boolean): ColorVariant {
  const inlines = inliningMatters && handover.inlinesRules;
  const markers = markerRules && handover.markers !== null;
  return {
    key: `${handover.mode}|${inlines ? 'inlines' : ''}|${markers ? `markers|${handover.client}` : ''}`,
    clientBit: 1 << CLIENT_INDEX[handover.client],
    recolor: handover.inverter,
    darkRules: handover.mode === 'dark-media',
    inlinesRules: inlines,
    canvas: handover.canvas,
    markers: markers ? handover.markers : null,
  };
}

/**
 * Which of the drop masks hold the client: clients alike in every mask drop the same declarations. A
 * number while the masks fit in one (as in every real email), else a string of 0s and 1s.
 */
function dropPattern(masks: readonly number[], clientBit: number): number | string {
  if (masks.length > 30) return masks.map((mask) => ((mask & clientBit) !== 0 ? '1' : '0')).join('');
  let pattern = 0;
  for (let i = 0; i < masks.length; i++) if ((masks[i] & clientBit) !== 0) pattern |= 1 << i;
  return pattern;
}

/** The analyzed clients in alphabetical order (the report's key order), without sorting per email. */
const SORTED_CLIENT_IDS = [...CLIENT_IDS].sort();

export function buildDarkContrast(context: ReportContext, handovers: readonly DarkColorHandover[]): DarkContrastReport {
  const runs = context.textRuns;
  const darkRules = handovers.some((handover) => handover.mode === 'dark-media');
  // Collect every color entry the runs depend on first, so that the drop masks that tell variants apart are known.
  // Only elements that can carry a color have entries: climb the chain of those (see colorParents).
  const { relevant, parents } = context.colors.colorParents();
  const visited = new Uint8Array(relevant.length);
  for (const run of runs) {
    for (let at = relevant[run.index] === 1 ? run.index : parents[run.index]; at !== -1 && visited[at] === 0; at = parents[at]) {
      visited[at] = 1;
      context.colors.entriesAt(at, false);
      if (darkRules) context.colors.entriesAt(at, true);
    }
  }
  const masks = [...context.colors.dropMasks].filter((mask) => mask !== 0).sort((a, b) => a - b);
  const markerRules = context.sheet.rules.some((rule) => /data-ogs[cb]/i.test(rule.selectorText));
  const inliningMatters = context.colors.inliningMatters();

  const issues = new ContrastIssues(context.doc, 'dark-low-contrast', 'In dark mode: ');
  /** Per variant key, then per drop pattern: its issues, shared by the clients that paint alike. */
  const perVariant = new Map<string, Map<number | string, ContrastIssue[]>>();
  const perClient = new Map<string, ContrastIssue[]>();
  /** The variant's issues, in source order. */
  const allRuns = (colors: VariantColors): ContrastIssue[] => {
    const found: ContrastIssue[] = [];
    runs.forEach((run, index) => {
      const issue = issues.check(colors, run, index);
      if (issue) found.push(issue);
    });
    return found.sort(compareIssues);
  };
  for (const handover of handovers) {
    const variant = variantOf(handover, inliningMatters, markerRules);
    const pattern = dropPattern(masks, variant.clientBit);
    let byPattern = perVariant.get(variant.key);
    if (!byPattern) {
      byPattern = new Map();
      perVariant.set(variant.key, byPattern);
    }
    let results = byPattern.get(pattern);
    if (!results) {
      const dropsNothing = pattern === 0 || (typeof pattern === 'string' && !pattern.includes('1'));
      const paintsAsWritten = dropsNothing && !variant.recolor && !variant.darkRules && !variant.canvas && !variant.markers;
      results = allRuns(paintsAsWritten ? context.light : new VariantColors(context.colors, variant));
      byPattern.set(pattern, results);
    }
    perClient.set(handover.client, results);
  }

  const clients: Record<string, DarkContrastClientReport> = {};
  let total = 0;
  let worstClient: string | null = null;
  let worstCount = 0;
  for (const clientId of SORTED_CLIENT_IDS) {
    const found = perClient.get(clientId);
    if (!found) continue;
    clients[clientId] = {
      checked: runs.length,
      issues: found.slice(0, DARK_CONTRAST_LISTING_LIMIT),
      omitted: Math.max(0, found.length - DARK_CONTRAST_LISTING_LIMIT),
    };
    total += found.length;
    if (found.length > worstCount) {
      worstCount = found.length;
      worstClient = clientId;
    }
  }
  return { clients, total, worstClient };
}
