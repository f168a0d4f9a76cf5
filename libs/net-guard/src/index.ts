// Public API of @mailproof/net-guard: server-side HTTP through an SSRF guard (image weights, link checks, URL import).
export { isPublicAddress, isIpLiteral } from './address-policy';
export { SsrfGuard, SsrfRefusedError, HopTimeoutError } from './ssrf-guard';
export type { SsrfGuardOptions, SsrfRefusal, GuardedResponse, GuardedStream, GuardedRequestOptions, HostResolver } from './ssrf-guard';
export { headUrls, headThenGet } from './head-requests';
export type { UrlCheck, HeadBatchOptions, HeadBatchResult } from './head-requests';
export { resolveLinks, normalizeLinkUrl, LINK_RESOLUTION_DEFAULTS } from './link-resolution';
export type { CachedLinkOutcome, LinkCheck, LinkCheckCache, LinkResolution, ResolveLinksOptions, UncheckedLink, UncheckedReason } from './link-resolution';
export { importEmailFromUrl, UrlImportError, UrlDeclinedError, UrlUnreachableError, URL_IMPORT_DEFAULTS } from './url-import';
export type { ImportEmailOptions, ImportedEmail } from './url-import';
export { fetchImage, ImageFetchError } from './image-fetch';
export type { FetchedImage, FetchImageOptions, ImageFetchFailure } from './image-fetch';
