/**
 * The typed client of Mailproof's REST API: openapi-fetch over the types openapi-typescript generated from
 * the OpenAPI document the API serves (openapi.ts, `npm run generate:api-client`; a test fails when they
 * are out of date). `mailproof gate` sends its requests through it; the package exports it
 * (as `@mailproof/cli/api-client`, docs/cli.md).
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './openapi';

export type { components, paths } from './openapi';
export type MailproofApiClient = Client<paths>;
export type GateRequest = components['schemas']['GateRequest'];
export type GateVerdict = components['schemas']['GateVerdictResponse'];
export type GateRun = components['schemas']['GateRunResponse'];

export interface MailproofApiClientOptions {
  /** The server, e.g. https://mailproof.example.com (the paths start with /api). */
  baseUrl: string;
  /** An API key (mp_live_…), sent as `Authorization: Bearer`. */
  apiKey?: string;
  /** Another fetch (tests, proxies); Node's own by default. */
  fetch?: typeof fetch;
}

export function createMailproofClient(options: MailproofApiClientOptions): MailproofApiClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: {
      accept: 'application/json, application/problem+json',
      ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
    },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
