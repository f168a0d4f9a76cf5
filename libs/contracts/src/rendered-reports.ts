import { getClient, type ClientId } from '@mailproof/engine';

/** The reports worker-render measures in rendered pages (docs/rendering.md); null in a preview never rendered. */

/** `overflowReport`: does the page scroll sideways at the client's viewport, by how much, and because of what. */
export interface OverflowReport {
  clients: Array<{
    clientId: ClientId;
    viewportWidth: number;
    scrollWidth: number;
    /** CSS px the page is wider than the viewport (0: fits). */
    overflowPx: number;
    /** The widest elements past the right edge, with their line in the analyzed HTML. */
    elements: Array<{ line: number | null; tag: string; right: number; width: number }>;
  }>;
  /** Clients whose page scrolls horizontally. */
  overflowing: ClientId[];
}

export interface ContrastFailure {
  line: number | null;
  tag: string;
  sample: string;
  color: string;
  background: string;
  ratio: number;
  /** 4.5 (normal text) or 3 (large: 24 px, or 18.66 px bold). */
  required: number;
}

/** `mobileContrast`: text whose rendered colors fail WCAG AA on each mobile client, light and dark. */
export interface MobileContrastReport {
  clients: Array<{ clientId: ClientId; mode: 'light' | 'dark'; checked: number; failures: ContrastFailure[]; overImage: number }>;
  /** Failures over every client and mode. */
  failing: number;
}

/** `visualReport`: how far each client's light screenshot is from the reference client's of the same width. */
export interface VisualReport {
  references: { wide: ClientId | null; mobile: ClientId | null };
  clients: Array<{
    clientId: ClientId;
    reference: ClientId;
    /** Share of pixels that differ, 0-100 (two decimals). */
    changedPercent: number;
    /** Boxes (CSS px) around the rows that changed, largest first. */
    regions: Array<{ x: number; y: number; width: number; height: number }>;
  }>;
  /**
   * Each client against the reference rendering (the email as written, no client rewrite, same
   * renderer and viewport), per scheme (decisions.md section 13): `divergence[clientId].light`.
   * A map like `compatibilityScores`; a scheme not painted is absent. Absent when no reference was painted.
   * The reference screenshot each entry is compared with is `screenshots[referenceShotFor(clientId, scheme)]`
   * (`reference-wide-light`, `reference-mobile-dark`…); see docs/visual.md.
   */
  divergence?: Partial<Record<ClientId, Partial<Record<'light' | 'dark', VisualDivergence>>>>;
}

/** The viewports screenshots are painted in: phones at 390 CSS px (scale 2), desktop and webmail at 800 (scale 1). */
export type ScreenshotViewport = 'wide' | 'mobile';

/**
 * The key of a reference screenshot in a preview's `screenshots` map: `reference-<viewport>-<scheme>`.
 * `reference` is a pseudo-client: the email as written, painted once per viewport and scheme.
 */
export function referenceShotId(viewport: ScreenshotViewport, scheme: 'light' | 'dark'): `reference-${ScreenshotViewport}-${'light' | 'dark'}` {
  return `reference-${viewport}-${scheme}`;
}

/** The reference screenshot a client's screenshot of `scheme` is compared with (mobile clients: the mobile viewport's). */
export function referenceShotFor(clientId: ClientId, scheme: 'light' | 'dark'): `reference-${ScreenshotViewport}-${'light' | 'dark'}` {
  return referenceShotId(getClient(clientId).category === 'mobile' ? 'mobile' : 'wide', scheme);
}

/** A box in page coordinates (CSS px, top-left origin). */
export interface PageBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One region where a client's rendering departs from the reference. */
export interface DivergenceRegion {
  box: PageBox;
  /**
   * `layout`: an element under the region moved, changed size or is not shown in the client (boxes measured
   * in both pages, matched by source line and tag); `color`: the same boxes painted differently.
   */
  kind: 'layout' | 'color';
  /**
   * The author's elements under the region (at most 3: those a change starts on, else those that moved,
   * else the smallest that cover it): a selector path in the reference page (`body > table > tr > td.cta > a`)
   * and the element's line in the analyzed HTML (the author's source for HTML; `compiledHtml` for JSX, MJML
   * and Maizzle; null when unknown).
   */
  elements: Array<{ selector: string; line: number | null }>;
  /**
   * What the client did that explains the region, when a computed style of one of those elements differs
   * from the reference's (`message`: "the button's `border-radius` is dropped by outlook-windows-legacy"),
   * or the element is not shown. `property`: the CSS property (shorthand name); `behaviour`: the rule id of
   * the client's finding in `cssReport` on that property, when there is one.
   */
  cause?: { message: string; property?: string; behaviour?: string };
}

/** One client and scheme against the reference rendering of the same viewport and scheme. */
export interface VisualDivergence {
  /**
   * 0 = identical to the reference, 100 = every pixel differs: 100 x the square root of the share of pixels
   * pixelmatch (threshold 0.1, anti-aliased pixels excluded) finds different; one decimal.
   */
  score: number;
  /** Where it differs, most changed pixels first (at most 12). */
  regions: DivergenceRegion[];
}

export interface RenderedReports {
  overflowReport: OverflowReport | null;
  mobileContrast: MobileContrastReport | null;
  visualReport: VisualReport | null;
}

/** What a preview stores of its renders: the three reports plus notes on the screenshots (cut pages, broken images). */
export interface StoredRenderedReports extends RenderedReports {
  screenshotNotes?: string[];
}
