// Public API of @mailproof/render: screenshots of an email's client views in headless Chromium, and the
// reports measured in the painted pages. Used by worker-render and the CLI (`mailproof screenshots`).
export { boundToParent, chromiumLaunchOptions, DEFAULT_CHROMIUM_PATH, RENDER_PAGE_URL } from './chromium';
export { planRenders, referenceShotId, shotId, viewportOf, SCREENSHOT_MODES, VIEWPORTS } from './shot-plan';
export type { ReferenceShotId, RenderUnit, ScreenshotMode, ShotId, ViewportName } from './shot-plan';
export { RenderPool, PaintError, RENDER_POOL_DEFAULTS } from './render-pool';
export type { RenderPoolOptions, PaintedPage } from './render-pool';
export { EmailImageLoader, IMAGE_LIMITS } from './image-loader';
export { isRasterImage, schemeDependence } from './scheme-dependence';
export type { ImageLimits, LoadedImage } from './image-loader';
export { renderEmail, renderedReports } from './render-email';
export type { DivergenceInputs, RenderEmailResult } from './render-email';
export { DecodedPages, PageComparisons, diffRegions, divergenceScore, visualDivergence, MAX_REGIONS, PIXEL_THRESHOLD } from './visual-divergence';
export type { PaintedReferences } from './visual-divergence';
export { contrastOfTexts, overflowReport, mobileContrast, visualReport, mergeRenderedReports } from './rendered-reports';
export type { PaintedShots } from './render-pool';
export type { PageMeasurements, MeasuredText, MeasuredElements } from './page-measurements';
export { PAINT_PROPERTIES } from './page-measurements';
