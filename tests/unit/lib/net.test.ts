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
    for (const text of ["", "example.com", "10.0.0.0/33", "::/129", "10.0.0.0/8/1", "10.0.0.0/x", "300.1.1.1"]) expect(parseRange(text)).toBeNull();
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
      "0.0.0.0": "a 'this network' address",
      "::1": "a loopback address",
      "::": "the unspecified address",
      "fd00:ec2::254": "a unique local address (private IPv6)",
      "fe80::1%eth0": "a link-local address",
      "::ffff:127.0.0.1": "an IPv4-mapped address",
      "::ffff:7f00:1": "an IPv4-mapped address",
      "64:ff9b::a00:1": "a NAT64 address",
      "224.0.0.1": "a multicast address",
    };
    for (const [address, reason] of Object.entries(refused)) expect(refusedAddressReason(address), address).toBe(reason);
  });

  it("lets public addresses through", () => {
    for (const address of ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111"]) expect(refusedAddressReason(address), address).toBeNull();
  });
});
