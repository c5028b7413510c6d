// An installed copy as compared: a domain normalised (a URL's host, case, www., a trailing dot, IDN), an id as it
// is, and the never-counted patterns of a policy (a name, *.name, name.*).
import { describe, expect, it } from "vitest";

import { neverCounted, normaliseDomain, readInstance } from "@/lib/licences/instances";

describe("instances", () => {
  it.each([
    ["shop.example.com", "shop.example.com"],
    ["https://WWW.Shop.Example.com/cart?x=1", "shop.example.com"],
    ["shop.example.com.", "shop.example.com"],
    ["shop.example.com:8080/path", "shop.example.com"],
    ["www.example.com", "example.com"],
    ["www.com", "www.com"],
    ["bücher.de", "xn--bcher-kva.de"],
    ["127.0.0.1", "127.0.0.1"],
  ])("reads %s as %s", (raw, domain) => {
    expect(normaliseDomain(raw)).toEqual({ ok: true, domain });
  });

  it.each(["", "not a domain", "https://", "-bad-.example.com", `${"a".repeat(250)}.com`])(
    "refuses %j with a sentence",
    (raw) => {
      const read = normaliseDomain(raw);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(read.reason).toMatch(/domain/);
    },
  );

  it("reads an instance's domain or id, and its name trimmed (empty: none)", () => {
    expect(readInstance({ domain: "WWW.Example.com", name: "  Main shop " })).toEqual({
      ok: true,
      instance: { kind: "domain", value: "example.com", name: "Main shop" },
    });
    expect(readInstance({ id: " machine-42 ", name: " " })).toEqual({
      ok: true,
      instance: { kind: "id", value: "machine-42", name: null },
    });
    expect(readInstance({ id: "   " }).ok).toBe(false);
  });

  it("never counts the policy's patterns: a name, *.name (subdomains), name.* (after a first label)", () => {
    const patterns = ["localhost", "*.test", "staging.*"];
    const domain = (value: string) => ({ kind: "domain" as const, value, name: null });
    expect(neverCounted(domain("localhost"), patterns)).toBe(true);
    expect(neverCounted(domain("shop.test"), patterns)).toBe(true);
    expect(neverCounted(domain("staging.shop.com"), patterns)).toBe(true);
    expect(neverCounted(domain("test"), patterns)).toBe(false);
    expect(neverCounted(domain("staging"), patterns)).toBe(false);
    expect(neverCounted(domain("shop.com"), patterns)).toBe(false);
    expect(neverCounted({ kind: "id", value: "localhost", name: null }, patterns)).toBe(false);
  });
});
