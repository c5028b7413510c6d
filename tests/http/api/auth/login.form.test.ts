// Signing in without JavaScript, over real HTTP: the sign-in page's form posts itself (method POST) to
// /api/auth/login as application/x-www-form-urlencoded. Success answers 303 to the page asked for, with the
// session cookie; a failure 303 back to /login with the error code — never what was typed. The form proves itself
// by its Origin (it cannot send X-CSRF): a foreign Origin, or none, sets no session.
import { describe, expect, it } from "vitest";

import { TEST_ADMIN } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";

// One trusted proxy, so that the sign-in throttle knows the client's address (X-Forwarded-For).
const { gateway } = setUpGateway({ env: { TRUST_PROXY: "1" }, assertNoKeyLeaked: true });

function post(fields: Record<string, string>, headers: Record<string, string> = { Origin: gateway.url }) {
  return gateway.request("/api/auth/login", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

const sessionCookie = (headers: Headers) =>
  headers
    .getSetCookie()
    .find((line) => /^gatehouse_session=[^;]/.test(line))
    ?.split(";", 1)[0];

describe("the sign-in page's form", () => {
  it("posts itself to the sign-in route, never by GET", async () => {
    const page = await gateway.request("/login?next=%2Freports");
    expect(page.status).toBe(200);
    const form = /<form[^>]*>/.exec(page.text)?.[0] ?? "";
    expect(form).toContain('method="post"');
    expect(form).toContain('action="/api/auth/login"');
    expect(page.text).toMatch(/<input type="hidden" name="next" value="\/reports"\/>/);
  });

  it("signs in: 303 to the page asked for, with the session cookie", async () => {
    const res = await post({ email: TEST_ADMIN.email, password: TEST_ADMIN.password, next: "/reports?page=2" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/reports?page=2");
    const cookie = sessionCookie(res.headers);
    expect(cookie).toBeDefined();
    const me = await gateway.request("/api/auth/me", { headers: { Cookie: cookie! } });
    expect(me.status).toBe(200);
    expect(me.json.data.user.email).toBe(TEST_ADMIN.email);
  });

  it("goes back to the sign-in page with the error code, never what was typed", async () => {
    const res = await post({ email: TEST_ADMIN.email, password: "not the password at all", next: "/reports" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/login?error=invalid_credentials&next=%2Freports");
    expect(sessionCookie(res.headers)).toBeUndefined();
    const page = await gateway.request(res.headers.get("location")!);
    expect(page.text).toContain("The email or the password is not right.");

    const empty = await post({ email: "", password: "" });
    expect(empty.headers.get("location")).toBe("/login?error=invalid_input");
    expect((await gateway.request(empty.headers.get("location")!)).text).toContain(
      "Enter your email address and your password.",
    );
  });

  it("follows only a path of this site, percent-encoded", async () => {
    const away = await post({ email: TEST_ADMIN.email, password: TEST_ADMIN.password, next: "//evil.example/" });
    expect(away.headers.get("location")).toBe("/");
    const accented = await post({
      email: TEST_ADMIN.email,
      password: TEST_ADMIN.password,
      next: "/reports?search=café",
    });
    expect(accented.headers.get("location")).toBe("/reports?search=caf%C3%A9");
  });

  it("sets no session for a form on another site, or one without an Origin", async () => {
    for (const headers of [
      { Origin: "https://evil.example" },
      { Origin: "null" },
      { Origin: gateway.url, "Sec-Fetch-Site": "cross-site" },
      {},
    ] as Array<Record<string, string>>) {
      const res = await post({ email: TEST_ADMIN.email, password: TEST_ADMIN.password, next: "/admin/users" }, headers);
      expect(res.status, JSON.stringify(headers)).toBe(303);
      // Refused before its fields are read: back to the page, with no destination.
      expect(res.headers.get("location"), JSON.stringify(headers)).toBe("/login?error=csrf");
      expect(sessionCookie(res.headers), JSON.stringify(headers)).toBeUndefined();
    }
    expect((await gateway.request("/login?error=csrf")).text).toContain("did not come from this portal");
  });

  it("refuses a field given twice, and never takes a password from the URL", async () => {
    const twice = await gateway.request("/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: gateway.url },
      body: `email=${encodeURIComponent(TEST_ADMIN.email)}&password=a&password=${encodeURIComponent(TEST_ADMIN.password)}`,
    });
    expect(twice.headers.get("location")).toBe("/login?error=invalid_input");
    expect(sessionCookie(twice.headers)).toBeUndefined();
    const query = new URLSearchParams({ email: TEST_ADMIN.email, password: TEST_ADMIN.password });
    expect((await gateway.request(`/api/auth/login?${query}`)).status).toBe(405);
  });

  it("keeps the JSON sign-in as it was: X-CSRF, 200 and the session", async () => {
    const res = await gateway.request("/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF": "1" },
      body: JSON.stringify(TEST_ADMIN),
    });
    expect(res.status).toBe(200);
    expect(res.json.data.user.email).toBe(TEST_ADMIN.email);
    // JSON without X-CSRF is still refused, Origin or not.
    const bare = await gateway.request("/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: gateway.url },
      body: JSON.stringify(TEST_ADMIN),
    });
    expect(bare.status).toBe(403);
  });

  it("says how long to wait when the sign-ins are throttled", async () => {
    const email = "throttled@gatehouse.test";
    let last: Awaited<ReturnType<typeof post>> | undefined;
    // Refused outright only for one account from one address (5 failures); from anywhere it would only slow down.
    const from = { Origin: gateway.url, "X-Forwarded-For": "203.0.113.77" };
    for (let i = 0; i < 6; i++) last = await post({ email, password: "wrong password here" }, from);
    expect(last!.headers.get("location")).toMatch(/^\/login\?error=rate_limited&retry=\d+$/);
    const page = await gateway.request(last!.headers.get("location")!);
    expect(page.text).toMatch(/Too many sign-in attempts\. Try again in \d+ (seconds|minutes)\./);
  });

  it("writes the audit rows as the JSON sign-in does", async () => {
    const admin = await gateway.signIn("admin");
    const rows = await admin.request("/api/admin/audit?action=auth.login&per_page=100");
    expect(rows.status).toBe(200);
    expect(rows.json.data.length).toBeGreaterThanOrEqual(4);
    const failed = await admin.request("/api/admin/audit?action=auth.login_failed&per_page=100");
    expect(failed.json.data.some((row: { user_email: string }) => row.user_email === TEST_ADMIN.email)).toBe(true);
  });
});
