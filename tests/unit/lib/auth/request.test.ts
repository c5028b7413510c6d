// The request edge without a server: host names served, the portal's origin. The HTTP suites prove the same
// rules through a running gateway (tests/http/server/hosts.test.ts).
import { describe, expect, it } from "vitest";

import { csrfRefusal } from "@/lib/auth/csrf";
import { clientAddress, isAllowedHost, isHttps, portalOrigin, requestHost } from "@/lib/auth/request";
import { parseEdgeSettings, type EdgeSettings } from "@/lib/config/edge";

const headers = (values: Record<string, string>) => new Headers(values);

describe("host names and the portal's origin", () => {
  const listed: EdgeSettings = {
    trustProxyHops: 0,
    publicOrigin: null,
    allowedHosts: ["portal.internal", "10.0.0.5:3000"],
  };
  const demo = parseEdgeSettings({
    GATEHOUSE_DEMO: "1",
    PUBLIC_ORIGIN: "https://portal.example.com",
    TRUST_PROXY: "1",
    ALLOWED_HOSTS: "x.example",
  }).settings;

  it("demo mode ignores the edge settings and serves loopback names only", () => {
    expect(demo).toEqual({ trustProxyHops: 0, publicOrigin: null, allowedHosts: [] });
    for (const host of ["localhost:3000", "127.0.0.1:3000", "127.9.9.9", "[::1]:3000", "app.localhost:3000"])
      expect(isAllowedHost(host, demo), host).toBe(true);
    for (const host of [
      "rebind.attacker.example:3000",
      "10.0.0.5:3000",
      "localhost.attacker.example",
      "127.0.0.1.nip.io",
      "",
      "[::2]",
    ]) {
      expect(isAllowedHost(host, demo), host).toBe(false);
    }
    expect(isAllowedHost(null, demo)).toBe(false);
  });

  it("never derives the CSRF origin from a name it does not serve", () => {
    expect(portalOrigin(headers({ host: "rebind.attacker.example:3000" }), demo)).toBeNull();
    expect(portalOrigin(headers({ host: "localhost:3000" }), demo)).toBe("http://localhost:3000");
    expect(portalOrigin(headers({ host: "portal.internal" }), listed)).toBe("http://portal.internal");
    expect(portalOrigin(headers({ host: "10.0.0.5:3000" }), listed)).toBe("http://10.0.0.5:3000");
    expect(portalOrigin(headers({ host: "10.0.0.5:3001" }), listed)).toBeNull();
    expect(portalOrigin(headers({ host: "evil.example" }), listed)).toBeNull();
    expect(
      csrfRefusal(headers({ host: "evil.example", origin: "http://evil.example", "x-csrf": "1" }), listed),
    ).toMatch(/evil\.example/);
    // Behind a trusted proxy the name is the proxy's X-Forwarded-Host.
    const proxied = { ...listed, trustProxyHops: 1 };
    expect(
      isAllowedHost(
        requestHost(headers({ host: "evil.example", "x-forwarded-host": "portal.internal" }), proxied),
        proxied,
      ),
    ).toBe(true);
    expect(
      isAllowedHost(
        requestHost(headers({ host: "portal.internal", "x-forwarded-host": "evil.example" }), proxied),
        proxied,
      ),
    ).toBe(false);
  });

  it("reads ALLOWED_HOSTS, and adds PUBLIC_ORIGIN's name", () => {
    expect(
      parseEdgeSettings({
        ALLOWED_HOSTS: " Portal.Internal , 10.0.0.5:3000 ",
        PUBLIC_ORIGIN: "https://portal.example.com",
      }).settings.allowedHosts,
    ).toEqual(["portal.example.com", "portal.internal", "10.0.0.5:3000"]);
    expect(parseEdgeSettings({}).settings.allowedHosts).toBeNull();
    expect(parseEdgeSettings({ ALLOWED_HOSTS: "https://portal.example.com" }).problems.map((p) => p.variable)).toEqual([
      "ALLOWED_HOSTS",
    ]);
  });
});

describe("X-Forwarded-* behind TRUST_PROXY", () => {
  const settings = (hops: number): EdgeSettings => ({
    trustProxyHops: hops,
    publicOrigin: null,
    allowedHosts: ["portal.internal"],
  });

  it("reads X-Forwarded-Host, -Proto and -For at the same trusted hop from the right: a spoofed leftmost value is ignored", () => {
    // The client wrote the first entry; the one trusted proxy appended what it saw.
    const spoofed = headers({
      host: "127.0.0.1:3000",
      "x-forwarded-host": "portal.internal, rebind.attacker.example",
      "x-forwarded-proto": "https, http",
      "x-forwarded-for": "203.0.113.9, 198.51.100.7",
    });
    expect(requestHost(spoofed, settings(1))).toBe("rebind.attacker.example");
    expect(isHttps(spoofed, settings(1))).toBe(false);
    expect(clientAddress(spoofed, settings(1))).toBe("198.51.100.7");
    expect(portalOrigin(spoofed, settings(1))).toBeNull();
    // Two trusted proxies: the outer one's entry is second from the right.
    const twoHops = headers({
      host: "10.0.0.2",
      "x-forwarded-host": "evil.example, portal.internal, inner.lb",
      "x-forwarded-proto": "http, https, http",
    });
    expect(requestHost(twoHops, settings(2))).toBe("portal.internal");
    expect(portalOrigin(twoHops, settings(2))).toBe("https://portal.internal");
  });

  it("takes a proxy's single value (a proxy that replaces the header), and ignores the headers without TRUST_PROXY", () => {
    const single = headers({
      host: "127.0.0.1:3000",
      "x-forwarded-host": "portal.internal",
      "x-forwarded-proto": "https",
    });
    expect(portalOrigin(single, settings(1))).toBe("https://portal.internal");
    expect(portalOrigin(single, settings(2))).toBe("https://portal.internal");
    expect(requestHost(single, settings(0))).toBe("127.0.0.1:3000");
    expect(isHttps(single, settings(0))).toBe(false);
  });
});
