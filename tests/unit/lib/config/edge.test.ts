// TRUST_PROXY, PUBLIC_ORIGIN and ALLOWED_HOSTS as read from the environment, and what a request's headers may then be believed.
import { describe, expect, it } from "vitest";

import { clientAddress, isHttps, portalOrigin } from "@/lib/auth/request";
import { parseEdgeSettings, type EdgeSettings } from "@/lib/config/edge";

const direct: EdgeSettings = { trustProxyHops: 0, publicOrigin: null, allowedHosts: null };

const behindOneProxy: EdgeSettings = { trustProxyHops: 1, publicOrigin: null, allowedHosts: null };

const headers = (values: Record<string, string>) => new Headers(values);

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
    const { problems } = parseEdgeSettings({
      TRUST_PROXY: "yes please",
      PUBLIC_ORIGIN: "https://portal.example.com/app",
    });
    expect(problems.map((p) => p.variable)).toEqual(["TRUST_PROXY", "PUBLIC_ORIGIN"]);
  });

  it("without TRUST_PROXY the client's address is unknown, whatever X-Forwarded-For says", () => {
    expect(clientAddress(headers({ "x-forwarded-for": "203.0.113.7" }), direct)).toBeNull();
  });

  it("with TRUST_PROXY it takes the address the trusted proxy appended, so rotating the rest changes nothing", () => {
    expect(clientAddress(headers({ "x-forwarded-for": "203.0.113.7" }), behindOneProxy)).toBe("203.0.113.7");
    expect(clientAddress(headers({ "x-forwarded-for": "1.1.1.1, 203.0.113.7" }), behindOneProxy)).toBe("203.0.113.7");
    expect(clientAddress(headers({ "x-forwarded-for": "9.9.9.9, 203.0.113.7" }), behindOneProxy)).toBe("203.0.113.7");
    expect(
      clientAddress(headers({ "x-forwarded-for": "1.1.1.1, 203.0.113.7, 10.0.0.2" }), {
        ...behindOneProxy,
        trustProxyHops: 2,
      }),
    ).toBe("203.0.113.7");
    expect(clientAddress(headers({ "x-forwarded-for": "203.0.113.7:51234" }), behindOneProxy)).toBe("203.0.113.7");
    expect(clientAddress(headers({ "x-forwarded-for": "[2001:DB8::1]:443" }), behindOneProxy)).toBe("2001:db8::1");
    expect(clientAddress(headers({}), behindOneProxy)).toBeNull();
  });

  it("believes X-Forwarded-Proto and X-Forwarded-Host only behind a trusted proxy; PUBLIC_ORIGIN wins", () => {
    const forwarded = headers({
      host: "10.0.0.5:3000",
      "x-forwarded-proto": "https",
      "x-forwarded-host": "portal.example.com",
    });
    expect(isHttps(forwarded, direct)).toBe(false);
    expect(portalOrigin(forwarded, direct)).toBe("http://10.0.0.5:3000");
    expect(isHttps(forwarded, behindOneProxy)).toBe(true);
    expect(portalOrigin(forwarded, behindOneProxy)).toBe("https://portal.example.com");
    const fixed = {
      trustProxyHops: 0,
      publicOrigin: "https://gatehouse.example.org",
      allowedHosts: ["gatehouse.example.org"],
    };
    expect(isHttps(forwarded, fixed)).toBe(true);
    expect(portalOrigin(forwarded, fixed)).toBe("https://gatehouse.example.org");
  });
});
