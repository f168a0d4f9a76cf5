import { referenceShotFor, type DivergenceRegion, type VisualDivergence, type VisualReport } from '@mailproof/contracts';
import { EMAIL_CLIENTS, isClientId } from '@mailproof/engine';
import { escapeHtml as e } from './html-escape';

/**
 * Where visual divergence shows on the share page and the dashboard's preview page (issue 42): per
 * screenshot, the regions that depart from the reference rendering drawn over it, and a slider between
 * the reference (the email as written) and the client. Markup only: the slider's script is the share
 * page's (share-page.assets.ts), the boxes are SVG attributes, so the pages' CSP needs no exception.
 */

type Scheme = 'light' | 'dark';
const CLIENTS = new Map(EMAIL_CLIENTS.map((c) => [c.id as string, c]));

/**
 * The CSS width each client is painted at (libs/render's VIEWPORTS: phones 390, desktop and webmail 800).
 * Region boxes are in CSS px of that page, so the overlay's coordinate system is this wide.
 */
export const PAINTED_WIDTHS = { mobile: 390, wide: 800 } as const;

export function viewportOf(clientId: string): 'mobile' | 'wide' {
  return CLIENTS.get(clientId)?.category === 'mobile' ? 'mobile' : 'wide';
}

/** The reference screenshot a client's screenshot of `scheme` is compared with (`reference-<viewport>-<scheme>`), when it was painted. */
export function referenceShotUrl(screenshots: Record<string, string>, clientId: string, scheme: Scheme): string | undefined {
  return isClientId(clientId) ? screenshots[referenceShotFor(clientId, scheme)] : undefined;
}

const KIND_LABELS = { layout: 'Layout', color: 'Colour' } as const;

/** One number per client (the worse scheme), highest first: the order a reader should look in. */
export function clientsByDivergence(
  divergence: NonNullable<VisualReport['divergence']>,
): Array<{ clientId: string; light?: number; dark?: number; worst: number }> {
  return Object.entries(divergence)
    .map(([clientId, schemes]) => {
      const light = schemes?.light?.score;
      const dark = schemes?.dark?.score;
      return { clientId, light, dark, worst: Math.max(light ?? 0, dark ?? 0) };
    })
    .sort((a, b) => b.worst - a.worst || (a.clientId < b.clientId ? -1 : 1));
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** "Layout", "table > tr > td.col (line 12)", "… (border-radius; outlook-windows-legacy)". */
function regionItem(region: DivergenceRegion, index: number): string {
  const { x, y, width, height } = region.box;
  const elements =
    region.elements.length === 0
      ? ''
      : `<ul class="region-elements">${region.elements
          .map((el) => `<li><code>${e(el.selector)}</code>${el.line !== null ? ` <span class="meta">line ${el.line}</span>` : ''}</li>`)
          .join('')}</ul>`;
  const detail = region.cause ? [region.cause.property, region.cause.behaviour].filter((part): part is string => Boolean(part)) : [];
  const cause = region.cause
    ? `<p class="region-cause">Cause: ${e(region.cause.message)}${detail.length > 0 ? ` <span class="meta">(${detail.map((d) => e(d)).join('; ')})</span>` : ''}</p>`
    : '';
  return `<li class="region-item"><p><span class="region-tag region-tag-${region.kind}">${index + 1} ${KIND_LABELS[region.kind]}</span> <span class="meta">at ${round(x)}, ${round(y)}, ${round(width)} × ${round(height)} px</span></p>${elements}${cause}</li>`;
}

/**
 * The boxes over a screenshot. The viewBox is the painted width by 1 px with `xMinYMin meet`: the scale is
 * then the displayed width over the painted width whatever the page's height (which the page does not know),
 * anchored top left, and boxes below the viewBox's 1 px still draw (only the SVG's own box clips).
 */
function regionsOverlay(regions: readonly DivergenceRegion[], paintedWidth: number): string {
  const boxes = regions
    .map((region, index) => {
      const { x, y, width, height } = region.box;
      const labelY = y >= 24 ? y - 5 : y + height + 20;
      return `<g class="region region-${region.kind}"><rect x="${x}" y="${y}" width="${width}" height="${height}"/><text x="${x}" y="${labelY}">${index + 1} ${KIND_LABELS[region.kind]}</text></g>`;
    })
    .join('');
  // Labels about 1/36 of the page's width: readable at the sizes the pages show a screenshot at.
  return `<svg class="regions-overlay" viewBox="0 0 ${paintedWidth} 1" preserveAspectRatio="xMinYMin meet" font-size="${Math.round(paintedWidth / 36)}" aria-hidden="true" focusable="false">${boxes}</svg>`;
}

export interface ComparedShot {
  clientId: string;
  clientName: string;
  scheme: Scheme;
  /** The client's screenshot URL. */
  url: string;
  /** The reference screenshot's URL, when one was painted. */
  referenceUrl?: string;
  divergence?: VisualDivergence;
}

/**
 * One screenshot with its divergence: the client's picture (the reference under it, behind a slider),
 * the region boxes over both, the score, and the regions listed as text (elements, lines, causes) for
 * everyone who cannot see the boxes. Without a reference or a divergence it is the plain screenshot.
 */
export function comparedShotFigure(shot: ComparedShot): string {
  const schemeLabel = shot.scheme === 'light' ? 'Light' : 'Dark';
  const alt = `${shot.clientName} in ${shot.scheme} mode (screenshot)`;
  if (!shot.divergence && !shot.referenceUrl) {
    return `<figure><img src="${e(shot.url)}" alt="${e(alt)}" loading="lazy"><figcaption>${schemeLabel}</figcaption></figure>`;
  }
  const id = `cmp-${shot.clientId}-${shot.scheme}`;
  const regions = shot.divergence?.regions ?? [];
  const reference = shot.referenceUrl
    ? `<img class="compare-reference" src="${e(shot.referenceUrl)}" alt="The email as written (reference), ${shot.scheme} mode" loading="lazy">`
    : '';
  const slider = shot.referenceUrl
    ? `<div class="compare-control" hidden><label for="${e(id)}">Reference to ${e(shot.clientName)}</label><input type="range" id="${e(id)}" min="0" max="100" step="1" value="100" aria-valuetext="${e(shot.clientName)}" data-compare-range data-client-name="${e(shot.clientName)}"></div>`
    : '';
  const score = shot.divergence
    ? ` · <span class="divergence-score">divergence ${round(shot.divergence.score)}/100</span>${regions.length > 0 ? `, ${regions.length} region${regions.length === 1 ? '' : 's'}` : ''}`
    : '';
  const list =
    regions.length > 0
      ? `<ol class="region-list" aria-label="Regions that differ, ${e(shot.clientName)}, ${shot.scheme}">${regions.map(regionItem).join('')}</ol>`
      : '';
  const referenceLink = shot.referenceUrl ? ` · <a href="${e(shot.referenceUrl)}">reference</a>` : '';
  return `<figure class="compare" data-compare>
<div class="compare-stage">${reference}<div class="compare-client"><img src="${e(shot.url)}" alt="${e(alt)}" loading="lazy"></div>${regions.length > 0 ? regionsOverlay(regions, PAINTED_WIDTHS[viewportOf(shot.clientId)]) : ''}</div>
${slider}
<figcaption>${schemeLabel}${score}${referenceLink}</figcaption>
${list}
</figure>`;
}

/** The rendered-reports line: clients ordered by how far they depart from the email as written. */
export function divergenceReportItem(divergence: VisualReport['divergence'], name: (clientId: string) => string): string {
  if (!divergence) return '';
  const ordered = clientsByDivergence(divergence);
  if (ordered.length === 0) return '';
  const scores = (c: (typeof ordered)[number]) =>
    [c.light !== undefined ? `${round(c.light)} light` : '', c.dark !== undefined ? `${round(c.dark)} dark` : ''].filter(Boolean).join(', ');
  return `<li>Divergence from the email as written (0 = identical, 100 = nothing in common), most different first:<ol class="divergence-order">${ordered
    .map((c) => `<li>${name(c.clientId)}: ${scores(c)}</li>`)
    .join('')}</ol></li>`;
}
