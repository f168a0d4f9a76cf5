import { createHash } from 'node:crypto';
import { getClient, type ClientId, type ClientRenderView } from '@mailproof/engine';
import { referenceShotId as contractsReferenceShotId } from '@mailproof/contracts';

export type ScreenshotMode = 'light' | 'dark';
export const SCREENSHOT_MODES: readonly ScreenshotMode[] = ['light', 'dark'];

/** Viewports: phones at 390 CSS px (device scale 2, as an iPhone 12-15 paints), desktop and webmail at 800. */
export const VIEWPORTS = {
  mobile: { width: 390, deviceScaleFactor: 2 },
  wide: { width: 800, deviceScaleFactor: 1 },
} as const;

export type ViewportName = keyof typeof VIEWPORTS;

/** `"<clientId>-light"` / `"<clientId>-dark"`: the keys of a preview's `screenshots` map. */
export type ShotId = `${ClientId}-${ScreenshotMode}`;

export function shotId(client: ClientId, mode: ScreenshotMode): ShotId {
  return `${client}-${mode}`;
}

/**
 * `"reference-wide-light"`, `"reference-mobile-dark"`…: the reference rendering (the email as written, no
 * client rewrite) of one viewport and scheme, stored beside the clients' screenshots (docs/visual.md).
 */
export type ReferenceShotId = `reference-${ViewportName}-${ScreenshotMode}`;

export function referenceShotId(viewport: ViewportName, mode: ScreenshotMode): ReferenceShotId {
  return contractsReferenceShotId(viewport, mode);
}

/** The viewport a client is painted in (and compared in against the reference of that viewport). */
export function viewportOf(client: ClientId): ViewportName {
  return getClient(client).category === 'mobile' ? 'mobile' : 'wide';
}

/** One distinct page to paint: identical markup, width and scheme are painted once for every client that shares them. */
export interface RenderUnit {
  /** SHA-256 of width, scale, scheme and markup. */
  key: string;
  html: string;
  width: number;
  deviceScaleFactor: number;
  colorScheme: ScreenshotMode;
  mobile: boolean;
  viewport: ViewportName;
  /** The screenshots this page stands for. */
  shots: Array<{ id: ShotId; client: ClientId; mode: ScreenshotMode }>;
  /** The reference renderings this page is (a client whose markup is the author's shares the page). */
  references: Array<{ id: ReferenceShotId; viewport: ViewportName; mode: ScreenshotMode }>;
  /** Measure every element's box and paint-relevant styles (the divergence's element matching). */
  measureElements: boolean;
}

/**
 * The distinct renders behind the requested screenshots. `<client>-light` is the client's rewritten
 * markup under a light scheme; `<client>-dark` its dark variant under the scheme its dark-mode model
 * uses (dark for clients that apply the email's own dark rules, light for inverting clients, whose
 * variant is already recolored). Many clients produce the same markup: each distinct page once. With
 * `reference` (renderEmailViews' author markup) the reference rendering of each viewport and scheme joins
 * the plan, sharing the page of any client whose markup is the author's.
 */
export function planRenders(views: readonly ClientRenderView[], modes: readonly ScreenshotMode[], reference?: string): RenderUnit[] {
  const units = new Map<string, RenderUnit>();
  const measureElements = reference !== undefined;
  const unitFor = (viewport: ViewportName, colorScheme: ScreenshotMode, html: string): RenderUnit => {
    const { width, deviceScaleFactor } = VIEWPORTS[viewport];
    const key = createHash('sha256').update(`${width}\n${deviceScaleFactor}\n${colorScheme}\n`).update(html).digest('hex');
    let unit = units.get(key);
    if (!unit) {
      unit = { key, html, width, deviceScaleFactor, colorScheme, mobile: viewport === 'mobile', viewport, shots: [], references: [], measureElements };
      units.set(key, unit);
    }
    return unit;
  };
  const viewports = new Set<ViewportName>();
  for (const view of views) {
    const viewport = viewportOf(view.clientId);
    viewports.add(viewport);
    for (const mode of modes) {
      const html = mode === 'light' ? view.light : view.dark;
      const colorScheme: ScreenshotMode = mode === 'dark' && view.darkUsesDarkScheme ? 'dark' : 'light';
      unitFor(viewport, colorScheme, html).shots.push({ id: shotId(view.clientId, mode), client: view.clientId, mode });
    }
  }
  // The reference: the author's markup once per viewport the clients use and per scheme, the dark one
  // under `prefers-color-scheme: dark` (the email's own dark rules; none: the page as written).
  if (reference !== undefined)
    for (const viewport of viewports)
      for (const mode of modes) unitFor(viewport, mode, reference).references.push({ id: referenceShotId(viewport, mode), viewport, mode });
  return [...units.values()];
}
