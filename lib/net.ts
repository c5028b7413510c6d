// IP addresses and ranges, with Node's own BlockList doing the matching: a token's allowed client ranges, and the
// addresses a webhook may never be sent to (loopback, private, link-local and cloud metadata, CGNAT, IPv6 unique
// local, IPv4-mapped and the other ranges that lead back inside). No `server-only`: the CLIs may use it too.
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

/** Where a server-side request must never go, with the reason a person reads. */
const REFUSED: ReadonlyArray<readonly [string, string]> = [
  ["0.0.0.0/8", "a 'this network' address"],
  ["10.0.0.0/8", "a private address"],
  ["100.64.0.0/10", "a carrier-grade NAT address"],
  ["127.0.0.0/8", "a loopback address"],
  ["169.254.0.0/16", "a link-local address (where cloud metadata services answer)"],
  ["172.16.0.0/12", "a private address"],
  ["192.0.0.0/24", "a reserved address"],
  ["192.0.2.0/24", "a documentation address"],
  ["192.168.0.0/16", "a private address"],
  ["198.18.0.0/15", "a benchmarking address"],
  ["198.51.100.0/24", "a documentation address"],
  ["203.0.113.0/24", "a documentation address"],
  ["224.0.0.0/4", "a multicast address"],
  ["240.0.0.0/4", "a reserved address"],
  ["::/128", "the unspecified address"],
  ["::1/128", "a loopback address"],
  ["::ffff:0:0/96", "an IPv4-mapped address"],
  ["::/96", "an IPv4-compatible address"],
  ["64:ff9b::/96", "a NAT64 address"],
  ["64:ff9b:1::/48", "a NAT64 address"],
  ["100::/64", "a discard address"],
  ["2001:db8::/32", "a documentation address"],
  ["2002::/16", "a 6to4 address"],
  ["fc00::/7", "a unique local address (private IPv6)"],
  ["fe80::/10", "a link-local address"],
  ["fec0::/10", "a site-local address"],
  ["ff00::/8", "a multicast address"],
];
const REFUSED_LISTS = REFUSED.map(([text, reason]) => {
  const range = parseRange(text)!;
  return { list: blockListOf([range]), family: range.family, reason };
});

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
  return null;
}
