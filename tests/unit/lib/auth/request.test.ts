// The request-edge rules without a server: the rate limiter, the client address and origin Gatehouse
// believes (TRUST_PROXY, PUBLIC_ORIGIN), the CSRF rule and the security headers. The HTTP suites beside this
// one prove the same rules through a running gateway.
import { describe, expect, it } from "vitest";

import { csrfRefusal } from "@/lib/auth/csrf";
import { checkPurchaseRateLimit, RateLimiter } from "@/lib/auth/rate-limit";
import { clientAddress, isAllowedHost, isHttps, portalOrigin, requestHost } from "@/lib/auth/request";
import { parseEdgeSettings, type EdgeSettings } from "@/lib/config/edge";
import { commonSecurityHeaders, newNonce, pageContentSecurityPolicy } from "@/lib/auth/security-headers";

const direct: EdgeSettings = { trustProxyHops: 0, publicOrigin: null, allowedHosts: null };
const behindOneProxy: EdgeSettings = { trustProxyHops: 1, publicOrigin: null, allowedHosts: null };
const headers = (values: Record<string, string>) => new Headers(values);

describe("RateLimiter", () => {
  it("allows `limit` hits per window, then says how long to wait; refused hits are not counted", () => {
    const limiter = new RateLimiter({ limit: 3, windowMs: 60_000 });
    for (let i = 0; i < 3; i++) {
      expect(limiter.check("u", 1_000 + i)).toEqual({ allowed: true });
      limiter.record("u", 1_000 + i);
    }
    expect(limiter.check("u", 31_000)).toEqual({ allowed: false, retryAfterSeconds: 30 });
    expect(limiter.check("u", 60_999)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    // The window started at the first hit (1000 ms): at 61 000 ms it is over.
    expect(limiter.check("u", 61_000)).toEqual({ allowed: true });
    expect(limiter.check("someone else", 31_000)).toEqual({ allowed: true });
  });

  it("keeps at most maxKeys keys, forgetting the least recently used", () => {
    const limiter = new RateLimiter({ limit: 1, windowMs: 60_000 }, 3);
    for (const key of ["a", "b", "c"]) limiter.record(key, 0);
    limiter.record("a", 1); // a is now the most recent
    limiter.record("d", 2);
    expect(limiter.size).toBe(3);
    expect(limiter.check("b", 3).allowed).toBe(true); // forgotten
    expect(limiter.check("a", 3).allowed).toBe(false);
    expect(limiter.check("c", 3).allowed).toBe(false);
    expect(limiter.check("d", 3).allowed).toBe(false);
    for (let i = 0; i < 50_000; i++) limiter.record(`k${i}`, 10);
    expect(limiter.size).toBe(3);
  });

  it("purchase checks: the per-user and the per-address limits both apply; an unknown address shares one bucket", () => {
    const rules = { perUser: 2, perIp: 3 };
    const t = 5_000_000;
    expect(checkPurchaseRateLimit(rules, { userId: "u1", address: "10.0.0.1" }, t).allowed).toBe(true);
    expect(checkPurchaseRateLimit(rules, { userId: "u1", address: "10.0.0.2" }, t).allowed).toBe(true);
    expect(checkPurchaseRateLimit(rules, { userId: "u1", address: "10.0.0.3" }, t)).toMatchObject({ allowed: false, limitedBy: "user" });
    expect(checkPurchaseRateLimit(rules, { userId: "u2", address: null }, t).allowed).toBe(true);
    expect(checkPurchaseRateLimit(rules, { userId: "u3", address: null }, t).allowed).toBe(true);
    expect(checkPurchaseRateLimit(rules, { userId: "u4", address: null }, t).allowed).toBe(true);
    expect(checkPurchaseRateLimit(rules, { userId: "u5", address: null }, t)).toMatchObject({ allowed: false, limitedBy: "ip", retryAfterSeconds: 60 });
  });
});

describe("TRUST_PROXY and PUBLIC_ORIGIN", () => {
  it("parses the variables and names a bad one", () => {
    expect(parseEdgeSettings({})).toEqual({ settings: direct, problems: [] });
    expect(parseEdgeSettings({ TRUST_PROXY: "1", PUBLIC_ORIGIN: "https://portal.example.com/" }).settings).toEqual({
      trustProxyHops: 1,
      publicOrigin: "https://portal.example.com",
      allowedHosts: ["portal.example.com"],
    });
    expect(parseEdgeSettings({ TRUST_PROXY: "true" }).settings.trustProxyHops).toBe(1);
    expect(parseEdgeSettings({ TRUST_PROXY: " " }).settings.trustProxyHops).toBe(0);
    const { problems } = parseEdgeSettings({ TRUST_PROXY: "yes please", PUBLIC_ORIGIN: "https://portal.example.com/app" });
    expect(problems.map((p) => p.variable)).toEqual(["TRUST_PROXY", "PUBLIC_ORIGIN"]);
  });

  it("without TRUST_PROXY the client's address is unknown, whatever X-Forwarded-For says", () => {
    expect(clientAddress(headers({ "x-forwarded-for": "203.0.113.7" }), direct)).toBeNull();
  });

  it("with TRUST_PROXY it takes the address the trusted proxy appended, so rotating the rest changes nothing", () => {
    expect(clientAddress(headers({ "x-forwarded-for": "203.0.113.7" }), behindOneProxy)).toBe("203.0.113.7");
    expect(clientAddress(headers({ "x-forwarded-for": "1.1.1.1, 203.0.113.7" }), behindOneProxy)).toBe("203.0.113.7");
    expect(clientAddress(headers({ "x-forwarded-for": "9.9.9.9, 203.0.113.7" }), behindOneProxy)).toBe("203.0.113.7");
    expect(clientAddress(headers({ "x-forwarded-for": "1.1.1.1, 203.0.113.7, 10.0.0.2" }), { ...behindOneProxy, trustProxyHops: 2 })).toBe("203.0.113.7");
    expect(clientAddress(headers({ "x-forwarded-for": "203.0.113.7:51234" }), behindOneProxy)).toBe("203.0.113.7");
    expect(clientAddress(headers({ "x-forwarded-for": "[2001:DB8::1]:443" }), behindOneProxy)).toBe("2001:db8::1");
    expect(clientAddress(headers({}), behindOneProxy)).toBeNull();
  });

  it("believes X-Forwarded-Proto and X-Forwarded-Host only behind a trusted proxy; PUBLIC_ORIGIN wins", () => {
    const forwarded = headers({ host: "10.0.0.5:3000", "x-forwarded-proto": "https", "x-forwarded-host": "portal.example.com" });
    expect(isHttps(forwarded, direct)).toBe(false);
    expect(portalOrigin(forwarded, direct)).toBe("http://10.0.0.5:3000");
    expect(isHttps(forwarded, behindOneProxy)).toBe(true);
    expect(portalOrigin(forwarded, behindOneProxy)).toBe("https://portal.example.com");
    const fixed = { trustProxyHops: 0, publicOrigin: "https://gatehouse.example.org", allowedHosts: ["gatehouse.example.org"] };
    expect(isHttps(forwarded, fixed)).toBe(true);
    expect(portalOrigin(forwarded, fixed)).toBe("https://gatehouse.example.org");
  });
});

describe("host names and the portal's origin", () => {
  const listed: EdgeSettings = { trustProxyHops: 0, publicOrigin: null, allowedHosts: ["portal.internal", "10.0.0.5:3000"] };
  const demo = parseEdgeSettings({ GATEHOUSE_DEMO: "1", PUBLIC_ORIGIN: "https://portal.example.com", TRUST_PROXY: "1", ALLOWED_HOSTS: "x.example" }).settings;

  it("demo mode ignores the edge settings and serves loopback names only", () => {
    expect(demo).toEqual({ trustProxyHops: 0, publicOrigin: null, allowedHosts: [] });
    for (const host of ["localhost:3000", "127.0.0.1:3000", "127.9.9.9", "[::1]:3000", "app.localhost:3000"]) expect(isAllowedHost(host, demo), host).toBe(true);
    for (const host of ["rebind.attacker.example:3000", "10.0.0.5:3000", "localhost.attacker.example", "127.0.0.1.nip.io", "", "[::2]"]) {
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
    expect(csrfRefusal(headers({ host: "evil.example", origin: "http://evil.example", "x-csrf": "1" }), listed)).toMatch(/evil\.example/);
    // Behind a trusted proxy the name is the proxy's X-Forwarded-Host.
    const proxied = { ...listed, trustProxyHops: 1 };
    expect(isAllowedHost(requestHost(headers({ host: "evil.example", "x-forwarded-host": "portal.internal" }), proxied), proxied)).toBe(true);
    expect(isAllowedHost(requestHost(headers({ host: "portal.internal", "x-forwarded-host": "evil.example" }), proxied), proxied)).toBe(false);
  });

  it("reads ALLOWED_HOSTS, and adds PUBLIC_ORIGIN's name", () => {
    expect(parseEdgeSettings({ ALLOWED_HOSTS: " Portal.Internal , 10.0.0.5:3000 ", PUBLIC_ORIGIN: "https://portal.example.com" }).settings.allowedHosts).toEqual([
      "portal.example.com",
      "portal.internal",
      "10.0.0.5:3000",
    ]);
    expect(parseEdgeSettings({}).settings.allowedHosts).toBeNull();
    expect(parseEdgeSettings({ ALLOWED_HOSTS: "https://portal.example.com" }).problems.map((p) => p.variable)).toEqual(["ALLOWED_HOSTS"]);
  });
});

describe("the CSRF rule", () => {
  const own = { host: "portal.test:3000" };
  it.each([
    ["no X-CSRF header", {}, /X-CSRF: 1/],
    ["X-CSRF with another value", { "x-csrf": "yes" }, /X-CSRF: 1/],
    ["a foreign Origin", { "x-csrf": "1", origin: "https://evil.example" }, /evil\.example/],
    ["Origin: null", { "x-csrf": "1", origin: "null" }, /Origin: null/],
    ["the same host on another scheme", { "x-csrf": "1", origin: "https://portal.test:3000" }, /not from this portal/],
    ["Sec-Fetch-Site: cross-site", { "x-csrf": "1", "sec-fetch-site": "cross-site" }, /another site/],
    ["Sec-Fetch-Site: same-site", { "x-csrf": "1", "sec-fetch-site": "same-site" }, /another site/],
  ])("refuses %s", (_name, extra, message) => {
    expect(csrfRefusal(headers({ ...own, ...extra }), direct)).toMatch(message);
  });

  it.each([
    ["X-CSRF and no Origin (a script)", { "x-csrf": "1" }],
    ["X-CSRF and our own Origin", { "x-csrf": "1", origin: "http://portal.test:3000", "sec-fetch-site": "same-origin" }],
  ])("accepts %s", (_name, extra) => {
    expect(csrfRefusal(headers({ ...own, ...extra }), direct)).toBeNull();
  });
});

describe("security headers", () => {
  it("gives each page render its own nonce, in a strict script policy", () => {
    const [a, b] = [newNonce(), newNonce()];
    expect(a).not.toBe(b);
    expect(Buffer.from(a, "base64")).toHaveLength(16);
    const policy = pageContentSecurityPolicy(a, { https: false });
    expect(policy).toContain(`script-src 'self' 'nonce-${a}' 'strict-dynamic'`);
    for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'"]) {
      expect(policy).toContain(directive);
    }
    expect(policy).not.toContain("unsafe-eval");
    expect(policy).not.toContain("upgrade-insecure-requests");
    expect(pageContentSecurityPolicy(a, { https: true, development: true })).toMatch(/'unsafe-eval'.*upgrade-insecure-requests/);
  });

  it("sends HSTS only over https", () => {
    expect(commonSecurityHeaders({ https: false })).toEqual({
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "same-origin",
      "X-Frame-Options": "DENY",
    });
    expect(commonSecurityHeaders({ https: true })["Strict-Transport-Security"]).toMatch(/^max-age=\d+/);
  });
});
