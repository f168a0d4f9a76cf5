/** Injection token of the worker's DnsResolver (the engine port); TangerineResolver in production. */
export const DNS_RESOLVER = Symbol('DnsResolver');
