// IP ranges: a token's allowed client ranges, and the addresses a webhook may never be sent to.
import { describe, expect, it } from "vitest";

import { inRanges, parseRange, plainAddress, refusedAddressReason } from "@/lib/net";

describe("parseRange", () => {
  it("reads an address as a single-address range and a CIDR range as written", () => {
    expect(parseRange("203.0.113.7")?.text).toBe("203.0.113.7/32");
    expect(parseRange(" 10.0.0.0/8 ")?.text).toBe("10.0.0.0/8");
    expect(parseRange("2001:DB8::/32")?.text).toBe("2001:db8::/32");
  });

  it("refuses what is not a range", () => {
    for (const text of ["", "example.com", "10.0.0.0/33", "::/129", "10.0.0.0/8/1", "10.0.0.0/x", "300.1.1.1"])
      expect(parseRange(text)).toBeNull();
  });
});

describe("inRanges", () => {
  const ranges = ["10.0.0.0/8", "2001:db8::/32", "198.51.100.7"].map((text) => parseRange(text)!);

  it("matches addresses inside a range, IPv4-mapped ones as their IPv4", () => {
    expect(inRanges(ranges, "10.20.30.40")).toBe(true);
    expect(inRanges(ranges, "::ffff:10.1.1.1")).toBe(true);
    expect(inRanges(ranges, "2001:db8::5")).toBe(true);
    expect(inRanges(ranges, "198.51.100.7")).toBe(true);
  });

  it("does not match anything else", () => {
    expect(inRanges(ranges, "11.0.0.1")).toBe(false);
    expect(inRanges(ranges, "198.51.100.8")).toBe(false);
    expect(inRanges(ranges, "not an address")).toBe(false);
  });

  it("reads an address without its zone", () => {
    expect(plainAddress("fe80::1%eth0")).toBe("fe80::1");
  });
});

describe("refusedAddressReason", () => {
  it("refuses loopback, private, link-local and metadata, CGNAT, ULA, IPv4-mapped and reserved addresses", () => {
    const refused: Record<string, string> = {
      "127.0.0.1": "a loopback address",
      "10.1.2.3": "a private address",
      "172.31.255.255": "a private address",
      "192.168.1.1": "a private address",
      "169.254.169.254": "a link-local address (where cloud metadata services answer)",
      "100.100.100.200": "a carrier-grade NAT address",
      "0.0.0.0": "the 'this host on this network' address",
      "0.1.2.3": "a 'this network' address",
      "::1": "a loopback address",
      "::": "the unspecified address",
      "fd00:ec2::254": "a unique local address (private IPv6)",
      "fe80::1%eth0": "a link-local address",
      "::ffff:127.0.0.1": "an IPv4-mapped address",
      "::ffff:7f00:1": "an IPv4-mapped address",
      "64:ff9b::a00:1": "a NAT64 address",
      "224.0.0.1": "a multicast address",
    };
    for (const [address, reason] of Object.entries(refused))
      expect(refusedAddressReason(address), address).toBe(reason);
  });

  // One address in each entry of IANA's special-purpose registries, written out here (not read from lib/net.ts) so
  // that an entry dropped from the table fails:
  // https://www.iana.org/assignments/iana-ipv4-special-registry/, https://www.iana.org/assignments/iana-ipv6-special-registry/
  const IANA_IPV4_SPECIAL: Array<[range: string, inside: string]> = [
    ["0.0.0.0/8", "0.255.255.254"],
    ["0.0.0.0/32", "0.0.0.0"],
    ["10.0.0.0/8", "10.255.0.1"],
    ["100.64.0.0/10", "100.127.255.254"],
    ["127.0.0.0/8", "127.1.2.3"],
    ["169.254.0.0/16", "169.254.0.1"],
    ["172.16.0.0/12", "172.20.0.1"],
    ["192.0.0.0/24", "192.0.0.200"],
    ["192.0.0.0/29", "192.0.0.5"],
    ["192.0.0.8/32", "192.0.0.8"],
    ["192.0.0.9/32", "192.0.0.9"],
    ["192.0.0.10/32", "192.0.0.10"],
    ["192.0.0.170/32", "192.0.0.170"],
    ["192.0.0.171/32", "192.0.0.171"],
    ["192.0.2.0/24", "192.0.2.77"],
    ["192.31.196.0/24", "192.31.196.1"],
    ["192.52.193.0/24", "192.52.193.9"],
    ["192.88.99.0/24", "192.88.99.1"],
    ["192.88.99.2/32", "192.88.99.2"],
    ["192.168.0.0/16", "192.168.200.3"],
    ["192.175.48.0/24", "192.175.48.6"],
    ["198.18.0.0/15", "198.19.255.1"],
    ["198.51.100.0/24", "198.51.100.200"],
    ["203.0.113.0/24", "203.0.113.1"],
    ["240.0.0.0/4", "250.1.2.3"],
    ["255.255.255.255/32", "255.255.255.255"],
  ];
  const IANA_IPV6_SPECIAL: Array<[range: string, inside: string]> = [
    ["::1/128", "::1"],
    ["::/128", "::"],
    ["::ffff:0:0/96", "::ffff:8.8.8.8"],
    ["64:ff9b::/96", "64:ff9b::808:808"],
    ["64:ff9b:1::/48", "64:ff9b:1:ffff::1"],
    ["100::/64", "100::abcd"],
    ["100:0:0:1::/64", "100:0:0:1::1"],
    ["2001::/23", "2001:1ff::1"],
    ["2001::/32", "2001:0:4136:e378:8000:63bf:3fff:fdd2"],
    ["2001:1::1/128", "2001:1::1"],
    ["2001:1::2/128", "2001:1::2"],
    ["2001:1::3/128", "2001:1::3"],
    ["2001:2::/48", "2001:2:0:ffff::1"],
    ["2001:3::/32", "2001:3:1::1"],
    ["2001:4:112::/48", "2001:4:112::1"],
    ["2001:10::/28", "2001:1f::1"],
    ["2001:20::/28", "2001:2f::1"],
    ["2001:30::/28", "2001:3f::1"],
    ["2001:db8::/32", "2001:db8:85a3::8a2e:370:7334"],
    ["2002::/16", "2002:c000:204::1"],
    ["2620:4f:8000::/48", "2620:4f:8000::1"],
    ["3fff::/20", "3fff:fff::1"],
    ["5f00::/16", "5f00:1::1"],
    ["fc00::/7", "fdff::1"],
    ["fe80::/10", "febf::1"],
  ];

  it.each([...IANA_IPV4_SPECIAL, ...IANA_IPV6_SPECIAL])(
    "refuses %s (e.g. %s) from IANA's special-purpose registries",
    (_range, inside) => {
      expect(refusedAddressReason(inside)).not.toBeNull();
    },
  );

  it("refuses multicast, site-local and IPv6 outside global unicast (2000::/3)", () => {
    for (const address of ["239.255.255.250", "ff02::1", "fec0::1", "::1.2.3.4", "4000::1", "e000::1"])
      expect(refusedAddressReason(address), address).not.toBeNull();
    expect(refusedAddressReason("2001:0:4136:e378:8000:63bf:3fff:fdd2")).toBe("a Teredo address");
    expect(refusedAddressReason("4000::1")).toBe("a reserved address (outside IPv6 global unicast, 2000::/3)");
  });

  it("lets public addresses through", () => {
    const publicAddresses = [
      "93.184.215.14",
      "8.8.8.8",
      "1.1.1.1",
      "192.0.1.1",
      "192.88.98.1",
      "223.255.255.254",
      "2606:4700:4700::1111",
      "2001:4860:4860::8888",
      "2001:200::1",
      "2a00:1450:4001:82a::200e",
      "2620:4f:8001::1",
    ];
    for (const address of publicAddresses) expect(refusedAddressReason(address), address).toBeNull();
  });
});
