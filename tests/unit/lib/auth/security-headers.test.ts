// The security headers and the pages' Content-Security-Policy, without a server.
import { describe, expect, it } from "vitest";

import { commonSecurityHeaders, newNonce, pageContentSecurityPolicy } from "@/lib/auth/security-headers";

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
    expect(pageContentSecurityPolicy(a, { https: true, development: true })).toMatch(
      /'unsafe-eval'.*upgrade-insecure-requests/,
    );
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
