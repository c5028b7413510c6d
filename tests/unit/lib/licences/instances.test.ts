// Instances as compared (lib/licences/instances.ts): a domain however the copy spells it (a URL, upper case, www.,
// a trailing dot, a port, an IDN) is one domain; what is not a domain is refused with the reason; ids are exact;
// the never-counted patterns (a name, *.suffix, label.*) match what they say and nothing more.
import { describe, expect, it } from "vitest";

import { neverCounted, normaliseDomain, readInstance, type Instance } from "@/lib/licences/instances";

const domain = (raw: string) => {
  const read = normaliseDomain(raw);
  return read.ok ? read.domain : `refused: ${read.reason}`;
};

describe("normaliseDomain", () => {
  it.each([
    ["shop.example.com", "shop.example.com"],
    ["SHOP.Example.COM", "shop.example.com"],
    ["www.shop.example.com", "shop.example.com"],
    ["www.example.com", "example.com"],
    ["example.com.", "example.com"],
    ["https://www.Example.com/wp-admin/?x=1", "example.com"],
    ["http://example.com:8080", "example.com"],
    ["example.com:8080/path", "example.com"],
    ["bücher.de", "xn--bcher-kva.de"],
    ["https://BÜCHER.de/", "xn--bcher-kva.de"],
    ["  example.com  ", "example.com"],
    ["127.0.0.1", "127.0.0.1"],
    ["localhost", "localhost"],
  ])("%s → %s", (raw, expected) => {
    expect(domain(raw)).toBe(expected);
  });

  it("keeps www. when it is the whole name but the suffix (www.com is a domain of its own)", () => {
    expect(domain("www.com")).toBe("www.com");
  });

  it.each(["<script>.example", "exa mple.com", "-bad.example", "a..b", "https://", "x".repeat(64) + ".com"])(
    "refuses %j with a reason a person can act on",
    (raw) => {
      expect(domain(raw)).toMatch(/^refused: (is not a domain|is longer)/);
    },
  );

  it("refuses a name longer than DNS allows", () => {
    expect(domain(`${"a".repeat(60)}.`.repeat(5) + "com")).toMatch(/refused: is longer than a domain may be/);
  });
});

describe("readInstance", () => {
  it("reads a domain, trimming its name, and an id exactly", () => {
    expect(readInstance({ domain: "WWW.Shop.example", name: "  Main shop " })).toEqual({
      ok: true,
      instance: { kind: "domain", value: "shop.example", name: "Main shop" },
    });
    expect(readInstance({ id: "Machine-A" })).toEqual({
      ok: true,
      instance: { kind: "id", value: "Machine-A", name: null },
    });
    expect(readInstance({ id: "   " })).toEqual({ ok: false, reason: "must not be empty" });
  });
});

describe("neverCounted", () => {
  const at = (value: string, kind: Instance["kind"] = "domain"): Instance => ({ kind, value, name: null });
  const patterns = ["localhost", "*.test", "staging.*"];

  it.each([
    ["localhost", true],
    ["shop.test", true],
    ["a.b.test", true],
    ["test", false],
    ["contest", false],
    ["staging.shop.example", true],
    ["staging", false],
    ["mystaging.shop.example", false],
    ["shop.example", false],
  ])("%s → %s", (value, expected) => {
    expect(neverCounted(at(value), patterns)).toBe(expected);
  });

  it("always counts an id, whatever it looks like", () => {
    expect(neverCounted(at("localhost", "id"), patterns)).toBe(false);
  });
});
