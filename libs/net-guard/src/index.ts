// Public API of @mailproof/net-guard: server-side HTTP through an SSRF guard (image weights, link checks, URL import).
export { isPublicAddress, isIpLiteral } from './address-policy';
export { SsrfGuard, SsrfRefusedError } from './ssrf-guard';
export type { SsrfGuardOptions, SsrfRefusal, GuardedResponse, HostResolver } from './ssrf-guard';
export { headUrls } from './head-requests';
export type { UrlCheck, HeadBatchOptions, HeadBatchResult } from './head-requests';
