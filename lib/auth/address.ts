// Which client a per-address limit counts: one IPv4 address, or one IPv6 /64 — the block a single home,
// phone or server is given, inside which it can take any of 2^64 addresses. Counting IPv6 addresses one by one
// would give each of those its own limit (the attack pass: ::1, ::2, ::3 of one /64 each got their own 20).
import { isIPv4, isIPv6 } from "node:net";

/** The key a per-address limit counts under; null when the address is unknown. */
export function addressKey(address: string | null): string | null {
  if (address === null) return null;
  const plain = address
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "");
  if (isIPv4(plain)) return plain;
  if (!isIPv6(plain)) return plain.slice(0, 64);
  const groups = expandIPv6(plain);
  // An IPv4 client seen through an IPv6 socket (::ffff:192.0.2.1) is that IPv4 client.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** The 8 groups of a valid IPv6 address (with "::" and a trailing dotted IPv4 part resolved). */
function expandIPv6(address: string): number[] {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? (text.split("::") as [string, string]) : [text, undefined];
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
}
