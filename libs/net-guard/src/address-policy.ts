import ipaddr from 'ipaddr.js';

/**
 * Whether an IP address is a public (global unicast) address a server-side fetch may connect to.
 * Everything else is refused: loopback, private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local
 * (169.254/16 with the cloud metadata address, fe80::/10), carrier-grade NAT, multicast, reserved,
 * documentation, benchmarking and transition ranges (6to4, Teredo, NAT64). IPv4-mapped and IPv4-compatible
 * IPv6 addresses are judged as the IPv4 address they carry. Unparsable input is not public.
 */
export function isPublicAddress(address: string): boolean {
  const text = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(text)) return false;
  let parsed = ipaddr.parse(text);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    else if (v6.parts.slice(0, 6).every((part) => part === 0)) {
      // IPv4-compatible (::a.b.c.d, deprecated) still routes to the IPv4 address on some stacks.
      parsed = ipaddr.IPv4.parse(`${v6.parts[6] >> 8}.${v6.parts[6] & 255}.${v6.parts[7] >> 8}.${v6.parts[7] & 255}`);
    }
  }
  return parsed.range() === 'unicast';
}

/** Whether a URL host (WHATWG `hostname`, IPv6 in brackets) is an IP literal. */
export function isIpLiteral(hostname: string): boolean {
  const text = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(text) && (text.includes(':') || /^\d{1,3}(\.\d{1,3}){3}$/.test(text));
}
