// The page after signing in (`/login?next=…`) over real HTTP: whatever characters `next` holds, the redirect's
// Location is ASCII (percent-encoded UTF-8) — a right-to-left override or any non-Latin-1 letter answered 500
// ("Invalid character in header content") — and never leaves the site.
import { describe, expect, it } from "vitest";

import { setUpGateway } from "@/tests/support/set-up-gateway";

const { gateway, client: viewer } = setUpGateway({ signIn: "viewer" });

describe("a signed-in visit to /login?next=…", () => {
  it.each([
    ["/%E2%80%AE", "/%E2%80%AE"],
    ["/reports%3Fsearch%3Dcaf%C3%A9", "/reports?search=caf%C3%A9"],
    ["%2Fprojects%2F%F0%9F%8C%8D", "/projects/%F0%9F%8C%8D"],
    ["/%C4%9F%C3%BC%C5%9F", "/%C4%9F%C3%BC%C5%9F"],
    ["/.//evil.example", "/"],
    ["//evil.example", "/"],
  ])("next=%s redirects to %s", async (next, location) => {
    const res = await viewer.request(`/login?next=${next}`);
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe(location);
  });
});

describe("a signed-out visit to a page with such a path", () => {
  it("is sent to /login with the path encoded in next, and the login page renders", async () => {
    const res = await gateway.request("/%E2%80%AE?q=%C3%A9");
    expect(res.status).toBe(307);
    const login = res.headers.get("location") ?? "";
    expect(login).toMatch(/^\/login\?next=%2F%25E2%2580%25AE%3Fq%3D%25C3%25A9$/);
    const page = await gateway.request(login);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Sign in to Gatehouse");
  });
});
