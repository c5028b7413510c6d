// Sessions, sign-in throttling, the audit log and the purchase-check rate limit, over real HTTP (next start ↔
// sandbox) with a real SQLite store the test also opens. Behind a "trusted proxy" (TRUST_PROXY=1), so that each
// test can be its own client address through X-Forwarded-For.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { sealSession, type SessionData } from "@/lib/auth/session";
import { parseDatabaseUrl } from "@/lib/config/store";
import { dayIn } from "@/lib/contract/time-zone";
import { openDb, type Store } from "@/lib/db";
import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";

import { CANARY } from "@/tests/support/canary";
import { TEST_ADMIN, TEST_SESSION_SECRET, type GatewayResponse, type SignedInClient } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";

const HOUR = 3_600_000;
const MINUTE = 60_000;
const PURCHASES_PER_USER = 3;
const PURCHASES_PER_IP = 5;

const { gateway, client: admin } = setUpGateway({
  signIn: "admin",
  env: {
    TRUST_PROXY: "1",
    PURCHASE_RATE_LIMIT_PER_USER: String(PURCHASES_PER_USER),
    PURCHASE_RATE_LIMIT_PER_IP: String(PURCHASES_PER_IP),
  },
});
let store: Store;

beforeAll(async () => {
  store = await openDb(parseDatabaseUrl(gateway.databaseUrl));
});

afterAll(async () => {
  await store?.close();
});

const jsonInit = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json", ...headers },
  body: JSON.stringify(body),
});

let addressCounter = 0;
/** A client address of its own (the trusted proxy's X-Forwarded-For entry), so throttles do not mix. */
const newAddress = () => `198.51.100.${++addressCounter}`;

function login(email: string, password: string, address = newAddress()): Promise<GatewayResponse> {
  return gateway.request(
    "/api/auth/login",
    jsonInit("POST", { email, password }, { "X-CSRF": "1", "X-Forwarded-For": address }),
  );
}

let userCounter = 0;
/** A fresh user (through the admin API) and a signed-in client for him. */
async function freshUser(role: "admin" | "editor" | "viewer" | "support", password = "fresh user password") {
  const email = `user-${++userCounter}-${role}@sessions.test`;
  const created = await admin.request(
    "/api/admin/users",
    jsonInit("POST", { email, name: `User ${userCounter}`, role, password }),
  );
  expect(created.status, created.text).toBe(201);
  return { id: created.json.data.id as string, email, password, client: await gateway.signIn({ email, password }) };
}

/** The user's row as the store holds it. */
async function sessionVersionOf(userId: string): Promise<number> {
  const row = await store.db
    .selectFrom("users")
    .select("session_version")
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.session_version);
}

/** A session cookie sealed with the gateway's secret, as the gateway would have sealed it at another time. */
async function forgedCookie(data: SessionData): Promise<string> {
  const sealed = await sealSession(data, {
    secrets: [TEST_SESSION_SECRET],
    absoluteMs: 48 * HOUR,
    idleMs: 48 * HOUR,
    secure: false,
  });
  return `gatehouse_session=${sealed}`;
}

async function auditRows(query: Record<string, string>) {
  const res = await admin.request(`/api/admin/audit?${new URLSearchParams({ per_page: "100", ...query })}`);
  expect(res.status, res.text).toBe(200);
  return res.json.data as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON rows
}

describe("signing in", () => {
  it("answers the user and sets an HttpOnly, SameSite=Lax session cookie (not Secure over plain http)", async () => {
    const res = await login(TEST_ADMIN.email, TEST_ADMIN.password);
    expect(res.status).toBe(200);
    expect(res.json.data.user).toMatchObject({ email: TEST_ADMIN.email, name: "Administrator", role: "admin" });
    expect(res.json.data.expires_at).toMatch(/Z$/);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("gatehouse_session="));
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=lax/i);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/; Secure/i);
  });

  it("gives an unknown email and a wrong password the same answer", async () => {
    const unknown = await login("nobody-at-all@sessions.test", "some password here");
    const wrong = await login(TEST_ADMIN.email, "not the admin password");
    for (const res of [unknown, wrong]) {
      expect(res.status).toBe(401);
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    const withoutId = (res: GatewayResponse) => ({ ...res.json.error, request_id: undefined });
    expect(withoutId(unknown)).toEqual(withoutId(wrong));
    expect(unknown.json.error.code).toBe("invalid_credentials");
  });

  it("validates the body: a 400 naming the field", async () => {
    const res = await gateway.request(
      "/api/auth/login",
      jsonInit("POST", { email: "not-an-email", password: "" }, { "X-CSRF": "1" }),
    );
    expect(res.status).toBe(400);
    expect(Object.keys(res.json.error.fields).sort()).toEqual(["email", "password"]);
  });

  it("GET /api/auth/me answers the session, or 401", async () => {
    const me = await admin.request("/api/auth/me");
    expect(me.status).toBe(200);
    expect(me.json.data).toMatchObject({
      user: { email: TEST_ADMIN.email, role: "admin" },
      permissions: expect.arrayContaining(["users:manage"]),
    });
    const ends = Date.parse(me.json.data.expires_at);
    expect(ends).toBeGreaterThan(Date.now() + 119 * MINUTE);
    expect(ends).toBeLessThanOrEqual(Date.now() + 120 * MINUTE);
    expect((await gateway.request("/api/auth/me")).status).toBe(401);
  });

  it("PATCH /api/auth/me keeps his time zone, back to the browser's with null, and refuses what is no zone", async () => {
    const { client } = await freshUser("support");
    const picked = await client.request("/api/auth/me", jsonInit("PATCH", { time_zone: "Asia/Tokyo" }));
    expect(picked.status, picked.text).toBe(200);
    expect(picked.json.data.user.time_zone).toBe("Asia/Tokyo");
    expect((await client.request("/api/auth/me")).json.data.user.time_zone).toBe("Asia/Tokyo");
    const refused = await client.request("/api/auth/me", jsonInit("PATCH", { time_zone: "Berlin" }));
    expect([refused.status, Object.keys(refused.json.error.fields)]).toEqual([400, ["time_zone"]]);
    const cleared = await client.request("/api/auth/me", jsonInit("PATCH", { time_zone: null }));
    expect(cleared.json.data.user.time_zone).toBeNull();
  });
});

describe("a copied cookie replayed after the session ended gets 401", () => {
  async function expectEnded(cookie: string) {
    const res = await gateway.request("/api/auth/me", { headers: { Cookie: cookie } });
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe("unauthenticated");
    // The browser is told to drop the dead cookie.
    expect(res.headers.getSetCookie().some((c) => /^gatehouse_session=;.*Max-Age=0/i.test(c))).toBe(true);
  }

  it("after logout (which ends every session of the user)", async () => {
    const user = await freshUser("viewer");
    const elsewhere = await gateway.signIn({ email: user.email, password: user.password });
    const copied = user.client.cookie();
    const out = await user.client.request("/api/auth/logout", { method: "POST" });
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().some((c) => /^gatehouse_session=;/.test(c))).toBe(true);
    await expectEnded(copied);
    await expectEnded(elsewhere.cookie());
    // Logging out without a session is not an error.
    expect((await gateway.request("/api/auth/logout", { method: "POST", headers: { "X-CSRF": "1" } })).status).toBe(
      204,
    );
  });

  it("after the user is disabled; he cannot sign in again until enabled", async () => {
    const user = await freshUser("editor");
    const copied = user.client.cookie();
    expect((await admin.request(`/api/admin/users/${user.id}`, jsonInit("PATCH", { disabled: true }))).status).toBe(
      200,
    );
    await expectEnded(copied);
    expect((await login(user.email, user.password)).json.error.code).toBe("invalid_credentials");
    expect((await admin.request(`/api/admin/users/${user.id}`, jsonInit("PATCH", { disabled: false }))).status).toBe(
      200,
    );
    expect((await login(user.email, user.password)).status).toBe(200);
  });

  it("after his password changes; the new password works", async () => {
    const user = await freshUser("support");
    const copied = user.client.cookie();
    expect(
      (await admin.request(`/api/admin/users/${user.id}`, jsonInit("PATCH", { password: "a brand new password" })))
        .status,
    ).toBe(200);
    await expectEnded(copied);
    expect((await login(user.email, user.password)).status).toBe(401);
    expect((await login(user.email, "a brand new password")).status).toBe(200);
  });

  it("after his role changes", async () => {
    const user = await freshUser("viewer");
    const copied = user.client.cookie();
    const before = await sessionVersionOf(user.id);
    const res = await admin.request(`/api/admin/users/${user.id}`, jsonInit("PATCH", { role: "editor" }));
    expect(res.json.data.role).toBe("editor");
    expect(await sessionVersionOf(user.id)).toBe(before + 1);
    await expectEnded(copied);
  });

  it("but not after a name change", async () => {
    const user = await freshUser("viewer");
    expect(
      (await admin.request(`/api/admin/users/${user.id}`, jsonInit("PATCH", { name: "Just Renamed" }))).status,
    ).toBe(200);
    expect((await user.client.request("/api/auth/me")).json.data.user.name).toBe("Just Renamed");
  });
});

describe("session expiry (cookies sealed with the gateway's secret at earlier times)", () => {
  let user: Awaited<ReturnType<typeof freshUser>>;
  beforeAll(async () => {
    user = await freshUser("viewer");
  });

  async function sessionAt(issuedAgoMs: number, lastSeenAgoMs: number): Promise<string> {
    const now = Date.now();
    return forgedCookie({
      userId: user.id,
      sessionVersion: await sessionVersionOf(user.id),
      issuedAt: now - issuedAgoMs,
      lastSeenAt: now - lastSeenAgoMs,
    });
  }

  it("ends 12 hours after sign-in however active (absolute)", async () => {
    const res = await gateway.request("/api/auth/me", {
      headers: { Cookie: await sessionAt(12 * HOUR + MINUTE, MINUTE) },
    });
    expect(res.status).toBe(401);
  });

  it("ends after 2 hours without a request (idle)", async () => {
    const res = await gateway.request("/api/auth/me", {
      headers: { Cookie: await sessionAt(3 * HOUR, 2 * HOUR + MINUTE) },
    });
    expect(res.status).toBe(401);
  });

  it("is renewed by a request: the idle timer restarts, the absolute one does not", async () => {
    const res = await gateway.request("/api/auth/me", {
      headers: { Cookie: await sessionAt(11 * HOUR, 2 * HOUR - MINUTE) },
    });
    expect(res.status).toBe(200);
    expect(
      res.headers
        .getSetCookie()
        .some((c) => c.startsWith("gatehouse_session=") && !c.startsWith("gatehouse_session=;")),
    ).toBe(true);
    // Two hours idle would pass the 12-hour mark: the absolute limit decides, an hour from now.
    const ends = Date.parse(res.json.data.expires_at);
    expect(ends).toBeGreaterThan(Date.now() + 55 * MINUTE);
    expect(ends).toBeLessThan(Date.now() + 61 * MINUTE);
  });

  it("renews a cookie sent again unchanged (a script, requests in flight) with the same renewed cookie, not a new seal each time", async () => {
    const cookie = await sessionAt(30 * MINUTE, 5 * MINUTE);
    const renewed = async () => {
      const res = await gateway.request("/api/auth/me", { headers: { Cookie: cookie } });
      expect(res.status).toBe(200);
      return res.headers
        .getSetCookie()
        .find((c) => c.startsWith("gatehouse_session=") && !c.startsWith("gatehouse_session=;"));
    };
    const first = await renewed();
    expect(first).toBeDefined();
    const value = (setCookie: string | undefined) => setCookie?.split(";")[0];
    // Each seal has its own random IV: the same value twice is the remembered renewal.
    expect(value(await renewed())).toBe(value(first));
    // The renewed cookie itself needs no renewal for a minute.
    const withRenewed = await gateway.request("/api/auth/me", { headers: { Cookie: value(first)! } });
    expect(withRenewed.status).toBe(200);
    expect(withRenewed.headers.getSetCookie()).toEqual([]);
  });

  it("rewrites the cookie at most once a minute", async () => {
    const res = await gateway.request("/api/auth/me", { headers: { Cookie: await sessionAt(10 * MINUTE, 20_000) } });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("refuses a cookie sealed with another secret", async () => {
    const sealed = await sealSession(
      {
        userId: user.id,
        sessionVersion: await sessionVersionOf(user.id),
        issuedAt: Date.now(),
        lastSeenAt: Date.now(),
      },
      { secrets: ["another-secret-that-is-long-enough-000"], absoluteMs: HOUR, idleMs: HOUR, secure: false },
    );
    expect((await gateway.request("/api/auth/me", { headers: { Cookie: `gatehouse_session=${sealed}` } })).status).toBe(
      401,
    );
  });
});

describe("sign-in throttling", () => {
  it("after 5 failures for one email from one address: 429 with Retry-After from that address, even with the right password", async () => {
    const user = await freshUser("viewer");
    const from = newAddress();
    for (let i = 0; i < 5; i++) expect((await login(user.email, `wrong password ${i}`, from)).status).toBe(401);
    const res = await login(user.email, user.password, from);
    expect(res.status).toBe(429);
    expect(res.json.error.code).toBe("rate_limited");
    const wait = Number(res.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(14 * 60);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    // An unknown email is throttled the same way, with the same answer.
    const ghost = "ghost@sessions.test";
    for (let i = 0; i < 5; i++) await login(ghost, `guess ${i}`, from);
    const ghostAnswer = await login(ghost, "guess 6", from);
    expect(ghostAnswer.status).toBe(429);
    const withoutSeconds = (res: GatewayResponse) => String(res.json.error.message).replace(/\d+ s\b/, "N s");
    expect(withoutSeconds(ghostAnswer)).toBe(withoutSeconds(await login(user.email, "x", from)));
  });

  it("after 20 failures from one address: 429 for any email from it; rotating the client-written part of X-Forwarded-For does not help", async () => {
    const proxySaw = newAddress();
    // One after the other: sent at once, they would queue for the few password-hashing slots and some would be
    // answered 503 server_busy on a loaded machine — a count this test does not control.
    const failures: GatewayResponse[] = [];
    for (let i = 0; i < 20; i++)
      failures.push(await login(`spray-${i}@sessions.test`, "Summer2025!", `10.${i}.0.1, ${proxySaw}`));
    expect(failures.map((r) => r.status)).toEqual(Array(20).fill(401));
    const next = await login(TEST_ADMIN.email, TEST_ADMIN.password, `172.16.9.9, ${proxySaw}`);
    expect(next.status).toBe(429);
    expect(Number(next.headers.get("retry-after"))).toBeGreaterThan(0);
    // The same account from another address is fine: the limit was the address's.
    expect((await login(TEST_ADMIN.email, TEST_ADMIN.password, newAddress())).status).toBe(200);
  }, 60_000); // 22 password hashes one after the other: about 6 s on a quiet machine, three times that on a busy one
});

describe("the purchase-check rate limit", () => {
  const validate = (client: SignedInClient, address: string) =>
    client.request(
      "/api/purchases/validate",
      jsonInit("POST", { purchase_code: FIXED_PURCHASE_CODES.active }, { "X-Forwarded-For": address }),
    );

  it(`allows ${PURCHASES_PER_USER} a minute per user, from any address`, async () => {
    const { client } = await freshUser("support");
    for (let i = 0; i < PURCHASES_PER_USER; i++) expect((await validate(client, newAddress())).status).toBe(200);
    const refused = await validate(client, newAddress());
    expect(refused.status).toBe(429);
    expect(refused.json.error).toMatchObject({
      code: "rate_limited",
      message: expect.stringContaining(`${PURCHASES_PER_USER} purchase checks a minute per user`),
    });
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
  });

  it(`allows ${PURCHASES_PER_IP} a minute per address, whoever asks`, async () => {
    const address = newAddress();
    const users = await Promise.all([freshUser("support"), freshUser("editor"), freshUser("support")]);
    const answers: number[] = [];
    for (const user of [...users, ...users])
      answers.push((await validate(user.client, `203.0.113.${answers.length}, ${address}`)).status);
    expect(answers).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe("the audit log", () => {
  it("writes one row per kind of action, with user, target, outcome and request id", async () => {
    const editor = await freshUser("editor");
    const email = editor.email;
    const idOf = (res: GatewayResponse) => res.headers.get("x-request-id");

    const created = await editor.client.request(
      "/api/reports",
      jsonInit("POST", { url: "https://audited.example.net/" }),
    );
    const reportId = String(created.json.data.id);
    const updated = await editor.client.request(`/api/reports/${reportId}`, jsonInit("PATCH", { privacy: 1 }));
    const regenerated = await editor.client.request(`/api/reports/${reportId}`, jsonInit("PATCH", { results: true }));
    const deleted = await editor.client.request(`/api/reports/${reportId}`, { method: "DELETE" });
    const projectDeleted = await editor.client.request(`/api/projects/${encodeURIComponent("audited.example.net")}`, {
      method: "DELETE",
    });
    const purchase = await editor.client.request(
      "/api/purchases/validate",
      jsonInit("POST", { purchase_code: FIXED_PURCHASE_CODES.expired }),
    );
    const failed = await login(email, "not his password");
    const loggedOut = await editor.client.request("/api/auth/logout", { method: "POST" });
    for (const res of [created, updated, regenerated, deleted, projectDeleted, purchase, failed, loggedOut])
      expect(res.status).toBeLessThan(500);

    const rows = await auditRows({ user: email });
    const row = (action: string) => rows.find((r) => r.action === action);
    expect(row("report.create")).toMatchObject({
      user_id: editor.id,
      target: { type: "report", id: reportId },
      outcome: "success",
      request_id: idOf(created),
    });
    expect(row("report.update")).toMatchObject({
      target: { type: "report", id: reportId },
      outcome: "success",
      request_id: idOf(updated),
      detail: { changes: ["privacy"] },
    });
    // A regeneration is its own action, not a change.
    expect(rows.filter((r) => r.action === "report.update")).toHaveLength(1);
    expect(row("report.regenerate")).toMatchObject({
      target: { type: "report", id: reportId },
      outcome: "success",
      request_id: idOf(regenerated),
    });
    expect(row("report.delete")).toMatchObject({
      target: { type: "report", id: reportId },
      outcome: "success",
      request_id: idOf(deleted),
    });
    expect(row("project.delete")).toMatchObject({
      target: { type: "project", id: "audited.example.net" },
      outcome: "success",
      request_id: idOf(projectDeleted),
    });
    expect(row("purchase.validate")).toMatchObject({
      target: { type: "purchase_code", id: expect.stringMatching(/^[0-9a-f]{64}$/) },
      // What the check found, not "success".
      outcome: "valid",
      request_id: idOf(purchase),
      detail: { valid: true, last4: FIXED_PURCHASE_CODES.expired.slice(-4) },
    });
    expect(row("auth.login")).toMatchObject({
      user_id: editor.id,
      target: { type: "user", id: editor.id },
      outcome: "success",
    });
    expect(row("auth.login_failed")).toMatchObject({
      user_id: null,
      user_email: email,
      target: { type: "user", id: editor.id },
      outcome: "failure",
      request_id: idOf(failed),
    });
    expect(row("auth.logout")).toMatchObject({ user_id: editor.id, outcome: "success", request_id: idOf(loggedOut) });

    const adminRows = await auditRows({ user: TEST_ADMIN.email, action: "user.create" });
    expect(adminRows.find((r) => r.target?.id === editor.id)).toMatchObject({
      outcome: "success",
      detail: { email, role: "editor" },
    });
    await admin.request(
      `/api/admin/users/${editor.id}`,
      jsonInit("PATCH", { role: "viewer", password: "another long password" }),
    );
    const update = (await auditRows({ user: TEST_ADMIN.email, action: "user.update" })).find(
      (r) => r.target?.id === editor.id,
    );
    expect(update).toMatchObject({ outcome: "success", detail: { changes: ["role", "password"], role: "viewer" } });
  });

  it("records refused and failed attempts as denied and failure", async () => {
    const viewer = await freshUser("viewer");
    const refused = await viewer.client.request("/api/reports/7", { method: "DELETE" });
    expect(refused.status).toBe(403);
    const editor = await freshUser("editor");
    const missing = await editor.client.request("/api/reports/987654", { method: "DELETE" });
    expect(missing.status).toBe(404);
    expect((await auditRows({ user: viewer.id, action: "report.delete" }))[0]).toMatchObject({
      outcome: "denied",
      target: { type: "report", id: "7" },
      detail: { error_code: "forbidden" },
    });
    expect((await auditRows({ user: editor.email, action: "report.delete" }))[0]).toMatchObject({
      outcome: "failure",
      detail: { error_code: "not_found" },
    });
  });

  it("never stores a purchase code, a password or a key", async () => {
    const all = JSON.stringify(await store.db.selectFrom("audit_log").selectAll().execute());
    for (const code of Object.values(FIXED_PURCHASE_CODES)) expect(all).not.toContain(code);
    for (const secret of [
      TEST_ADMIN.password,
      "fresh user password",
      "a brand new password",
      "not his password",
      CANARY.items,
      CANARY.reports,
    ]) {
      expect(all).not.toContain(secret);
    }
    expect(gateway.output().join("\n")).not.toContain(TEST_ADMIN.password);
  });

  it("filters by action, user and time, and pages", async () => {
    const everything = await admin.request("/api/admin/audit?per_page=10&page=2");
    expect(everything.json.meta).toMatchObject({ page: 2, per_page: 10, total: expect.any(Number) });
    expect(everything.json.meta.last_page).toBe(Math.ceil(everything.json.meta.total / 10));
    const future = await admin.request("/api/admin/audit?from=2999-01-01");
    expect(future.json).toEqual({ data: [], meta: { page: 1, per_page: 25, total: 0, last_page: 1 } });
    const today = new Date().toISOString().slice(0, 10);
    const logins = await auditRows({ action: "auth.login", from: today, to: today });
    expect(logins.length).toBeGreaterThan(0);
    // A bare date is a day of time_zone when one is given. Kiritimati's today (UTC+14) began before now there;
    // the same date at UTC-12 begins 26 hours later, after now whatever the hour.
    const kiritimatiDay = dayIn(new Date(), "Pacific/Kiritimati");
    const since = async (zone: string) =>
      (await admin.request(`/api/admin/audit?from=${kiritimatiDay}&time_zone=${encodeURIComponent(zone)}`)).json.meta
        .total;
    expect(await since("Pacific/Kiritimati")).toBeGreaterThan(0);
    expect(await since("Etc/GMT+12")).toBe(0);
    expect((await admin.request("/api/admin/audit?from=2999-01-01&time_zone=Mars%2FOlympus")).status).toBe(400);
    expect(logins.every((r) => r.action === "auth.login")).toBe(true);
    const times = logins.map((r) => r.at);
    expect(times).toEqual([...times].sort().reverse());
  });

  it.each([
    ["action=user.purge", "action"],
    ["from=yesterday", "from"],
    ["from=2025-03-02&to=2025-03-01", "from"],
    ["per_page=7", "per_page"],
    ["page=0", "page"],
    ["sort=asc", "sort"],
  ])("?%s → 400 naming %s", async (query, field) => {
    const res = await admin.request(`/api/admin/audit?${query}`);
    expect(res.status).toBe(400);
    expect(Object.keys(res.json.error.fields)).toEqual([field]);
  });
});

describe("the admin API's refusals", () => {
  it("409 for a taken email, naming the field", async () => {
    const res = await admin.request(
      "/api/admin/users",
      jsonInit("POST", {
        email: TEST_ADMIN.email.toUpperCase(),
        name: "Dup",
        role: "viewer",
        password: "a duplicate account password",
      }),
    );
    expect(res.status).toBe(409);
    expect(res.json.error).toMatchObject({
      code: "email_taken",
      fields: { email: expect.stringContaining("already exists") },
    });
  });

  it("409 for removing the last admin, 404 for an unknown user, 400 for a malformed id or nothing to change", async () => {
    const me = (await admin.request("/api/auth/me")).json.data.user;
    const demote = await admin.request(`/api/admin/users/${me.id}`, jsonInit("PATCH", { role: "viewer" }));
    expect(demote.status).toBe(409);
    expect(demote.json.error.code).toBe("last_admin");
    const unknown = await admin.request(
      "/api/admin/users/00000000-0000-4000-8000-000000000000",
      jsonInit("PATCH", { name: "Nobody" }),
    );
    expect(unknown.status).toBe(404);
    const malformed = await admin.request("/api/admin/users/42", jsonInit("PATCH", { name: "Nobody" }));
    expect(malformed.status).toBe(400);
    expect(Object.keys(malformed.json.error.fields)).toEqual(["id"]);
    const nothing = await admin.request(`/api/admin/users/${me.id}`, jsonInit("PATCH", {}));
    expect(nothing.status).toBe(400);
    expect(nothing.json.error.message).toContain("nothing to change");
  });

  it("lists users without password hashes", async () => {
    const res = await admin.request("/api/admin/users");
    expect(res.json.data.length).toBeGreaterThan(1);
    for (const user of res.json.data)
      expect(Object.keys(user).sort()).toEqual([
        "created_at",
        "disabled",
        "email",
        "id",
        "identity",
        "last_sign_in_at",
        "name",
        "role",
        "role_pinned",
        "service",
        "updated_at",
      ]);
    expect(res.text).not.toContain("scrypt$");
  });
});
