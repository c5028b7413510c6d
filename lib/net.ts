// IP addresses and ranges, with Node's own BlockList doing the matching: a token's allowed client ranges, and the
// addresses a webhook may never be sent to (IANA's special-purpose registries whole: loopback, private, link-local
// and cloud metadata, CGNAT, IPv6 unique local, IPv4-mapped, Teredo and the rest). No `server-only`: the CLIs may
// use it too.
import { BlockList, isIP } from "node:net";

export type Family = "ipv4" | "ipv6";

export interface AddressRange {
  /** As written, normalised: "10.0.0.0/8", "2001:db8::/32", "203.0.113.7/32". */
  text: string;
  address: string;
  prefix: number;
  family: Family;
}

/** An address without its zone ("fe80::1%eth0") and, when it is an IPv4 address mapped into IPv6, as that IPv4. */
export function plainAddress(address: string): string {
  const bare = address.replace(/%.*$/, "");
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare);
  return mapped ? mapped[1]! : bare;
}

export function familyOf(address: string): Family | null {
  const version = isIP(address);
  return version === 4 ? "ipv4" : version === 6 ? "ipv6" : null;
}

/** "203.0.113.7", "10.0.0.0/8" or "2001:db8::/32" as a range, or null when it is not one. */
export function parseRange(text: string): AddressRange | null {
  const [address = "", prefixText, extra] = text.trim().split("/");
  if (extra !== undefined) return null;
  const family = familyOf(address);
  if (!family) return null;
  const max = family === "ipv4" ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return null;
  return { text: `${address.toLowerCase()}/${prefix}`, address: address.toLowerCase(), prefix, family };
}

export function blockListOf(ranges: readonly AddressRange[]): BlockList {
  const list = new BlockList();
  for (const range of ranges) list.addSubnet(range.address, range.prefix, range.family);
  return list;
}

/** Whether `address` (a client's, as the request edge read it) is in one of `ranges`. */
export function inRanges(ranges: readonly AddressRange[], address: string): boolean {
  const plain = plainAddress(address);
  const family = familyOf(plain);
  return family !== null && blockListOf(ranges).check(plain, family);
}

/**
 * Where a server-side request must never go, with the reason a person reads: every entry of IANA's special-purpose
 * address registries, transcribed in their order (refused whole, the few "globally reachable" anycast entries
 * too: no webhook receiver lives there), and the multicast ranges. IPv6 outside the global unicast space 2000::/3
 * is refused as well (GLOBAL_UNICAST_V6, below), so a range IANA has not handed out is never reachable either.
 *   IPv4: https://www.iana.org/assignments/iana-ipv4-special-registry/ (and 224.0.0.0/4 from
 *         https://www.iana.org/assignments/multicast-addresses/)
 *   IPv6: https://www.iana.org/assignments/iana-ipv6-special-registry/ (and ff00::/8, fec0::/10 from
 *         https://www.iana.org/assignments/ipv6-address-space/)
 * Transcribed in December 2026; when IANA adds an entry, add its line here and its address to tests/unit/lib/net.test.ts.
 */
const REFUSED: ReadonlyArray<readonly [string, string]> = [
  // IPv4 special-purpose registry
  ["0.0.0.0/8", "a 'this network' address"],
  ["0.0.0.0/32", "the 'this host on this network' address"],
  ["10.0.0.0/8", "a private address"],
  ["100.64.0.0/10", "a carrier-grade NAT address"],
  ["127.0.0.0/8", "a loopback address"],
  ["169.254.0.0/16", "a link-local address (where cloud metadata services answer)"],
  ["172.16.0.0/12", "a private address"],
  ["192.0.0.0/24", "an IETF protocol assignment address"],
  ["192.0.0.0/29", "an IPv4 service continuity address"],
  ["192.0.0.8/32", "the IPv4 dummy address"],
  ["192.0.0.9/32", "the Port Control Protocol anycast address"],
  ["192.0.0.10/32", "the TURN anycast address"],
  ["192.0.0.170/32", "a NAT64/DNS64 discovery address"],
  ["192.0.0.171/32", "a NAT64/DNS64 discovery address"],
  ["192.0.2.0/24", "a documentation address"],
  ["192.31.196.0/24", "an AS112 address"],
  ["192.52.193.0/24", "an AMT address"],
  ["192.88.99.0/24", "a deprecated 6to4 relay anycast address"],
  ["192.88.99.2/32", "the 6a44 relay anycast address"],
  ["192.168.0.0/16", "a private address"],
  ["192.175.48.0/24", "an AS112 address"],
  ["198.18.0.0/15", "a benchmarking address"],
  ["198.51.100.0/24", "a documentation address"],
  ["203.0.113.0/24", "a documentation address"],
  ["240.0.0.0/4", "a reserved address"],
  ["255.255.255.255/32", "the limited broadcast address"],
  // IPv4 multicast
  ["224.0.0.0/4", "a multicast address"],
  // IPv6 special-purpose registry
  ["::1/128", "a loopback address"],
  ["::/128", "the unspecified address"],
  ["::ffff:0:0/96", "an IPv4-mapped address"],
  ["64:ff9b::/96", "a NAT64 address"],
  ["64:ff9b:1::/48", "a NAT64 address"],
  ["100::/64", "a discard address"],
  ["100:0:0:1::/64", "a dummy IPv6 address"],
  ["2001::/23", "an IETF protocol assignment address"],
  ["2001::/32", "a Teredo address"],
  ["2001:1::1/128", "the Port Control Protocol anycast address"],
  ["2001:1::2/128", "the TURN anycast address"],
  ["2001:1::3/128", "the DNS-SD service registration anycast address"],
  ["2001:2::/48", "a benchmarking address"],
  ["2001:3::/32", "an AMT address"],
  ["2001:4:112::/48", "an AS112 address"],
  ["2001:10::/28", "a deprecated ORCHID address"],
  ["2001:20::/28", "an ORCHIDv2 address"],
  ["2001:30::/28", "a drone remote ID (DET) address"],
  ["2001:db8::/32", "a documentation address"],
  ["2002::/16", "a 6to4 address"],
  ["2620:4f:8000::/48", "an AS112 address"],
  ["3fff::/20", "a documentation address"],
  ["5f00::/16", "a segment routing (SRv6) address"],
  ["fc00::/7", "a unique local address (private IPv6)"],
  ["fe80::/10", "a link-local address"],
  // IPv6 address space: deprecated site-local, and multicast
  ["fec0::/10", "a site-local address"],
  ["ff00::/8", "a multicast address"],
];
/** Longest prefix first: an address gets the reason of the narrowest entry it is in (Teredo, not 2001::/23). */
const REFUSED_LISTS = REFUSED.map(([text, reason]) => ({ range: parseRange(text)!, reason }))
  .sort((a, b) => b.range.prefix - a.range.prefix)
  .map(({ range, reason }) => ({ list: blockListOf([range]), family: range.family, reason }));
/** The only IPv6 space IANA has allocated for global unicast (the IPv6 address space registry). */
const GLOBAL_UNICAST_V6 = blockListOf([parseRange("2000::/3")!]);

/**
 * Why Gatehouse must not send a request to `address` (an IP address, as DNS answered it), or null when it is a
 * public address. An IPv4-mapped IPv6 address is refused as such: whatever it maps to, it is not how a public
 * receiver is reached.
 */
export function refusedAddressReason(address: string): string | null {
  const bare = address.replace(/%.*$/, "");
  const family = familyOf(bare);
  if (!family) return "not an IP address";
  if (family === "ipv6" && /^::ffff:/i.test(bare)) return "an IPv4-mapped address";
  for (const { list, family: rangeFamily, reason } of REFUSED_LISTS) {
    if (rangeFamily === family && list.check(bare, family)) return reason;
  }
  if (family === "ipv6" && !GLOBAL_UNICAST_V6.check(bare, family))
    return "a reserved address (outside IPv6 global unicast, 2000::/3)";
  return null;
}
