import { createHash } from 'node:crypto';
import { getClient, type ClientId, type ClientRenderView } from '@mailproof/engine';

export type ScreenshotMode = 'light' | 'dark';
export const SCREENSHOT_MODES: readonly ScreenshotMode[] = ['light', 'dark'];

/** Viewports: phones at 390 CSS px (device scale 2, as an iPhone 12-15 paints), desktop and webmail at 800. */
export const VIEWPORTS = {
  mobile: { width: 390, deviceScaleFactor: 2 },
  wide: { width: 800, deviceScaleFactor: 1 },
} as const;

/** `"<clientId>-light"` / `"<clientId>-dark"`: the keys of a preview's `screenshots` map. */
export type ShotId = `${ClientId}-${ScreenshotMode}`;

export function shotId(client: ClientId, mode: ScreenshotMode): ShotId {
  return `${client}-${mode}`;
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
  /** The screenshots this page stands for. */
  shots: Array<{ id: ShotId; client: ClientId; mode: ScreenshotMode }>;
}

/**
 * The distinct renders behind the requested screenshots. `<client>-light` is the client's rewritten
 * markup under a light scheme; `<client>-dark` its dark variant under the scheme its dark-mode model
 * uses (dark for clients that apply the email's own dark rules, light for inverting clients, whose
 * variant is already recolored). Many clients produce the same markup: each distinct page once.
 */
export function planRenders(views: readonly ClientRenderView[], modes: readonly ScreenshotMode[]): RenderUnit[] {
  const units = new Map<string, RenderUnit>();
  for (const view of views) {
    const mobile = getClient(view.clientId).category === 'mobile';
    const viewport = mobile ? VIEWPORTS.mobile : VIEWPORTS.wide;
    for (const mode of modes) {
      const html = mode === 'light' ? view.light : view.dark;
      const colorScheme: ScreenshotMode = mode === 'dark' && view.darkUsesDarkScheme ? 'dark' : 'light';
      const key = createHash('sha256').update(`${viewport.width}\n${viewport.deviceScaleFactor}\n${colorScheme}\n`).update(html).digest('hex');
      let unit = units.get(key);
      if (!unit) {
        unit = { key, html, width: viewport.width, deviceScaleFactor: viewport.deviceScaleFactor, colorScheme, mobile, shots: [] };
        units.set(key, unit);
      }
      unit.shots.push({ id: shotId(view.clientId, mode), client: view.clientId, mode });
    }
  }
  return [...units.values()];
}
