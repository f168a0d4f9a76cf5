import type { ClientId } from '@mailproof/engine';

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
   * renderer and viewport), per scheme: `divergence[clientId].light`.
   * A map like `compatibilityScores`; a scheme not painted is absent. Absent when no reference was painted.
   */
  divergence?: Partial<Record<ClientId, Partial<Record<'light' | 'dark', VisualDivergence>>>>;
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
  /** `layout`: an element moved or resized; `color`: the same boxes painted differently. */
  kind: 'layout' | 'color';
  /** The author's elements under the region: a selector path and the line in the author's source (null when unknown). */
  elements: Array<{ selector: string; line: number | null }>;
  /** The client behaviour or finding that explains the region, when one does. */
  cause?: { message: string; property?: string; behaviour?: string };
}

/** One client and scheme against the reference rendering of the same viewport and scheme. */
export interface VisualDivergence {
  /** 0 = identical to the reference, 100 = nothing in common. */
  score: number;
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
