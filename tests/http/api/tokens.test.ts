// API tokens over real HTTP (next start ↔ sandbox): making, listing and revoking them; Authorization: Bearer on
// every route its scopes allow and on no other; expiry, revocation and the owner's changes on the very next
// request; allowed client ranges; one rate limit for all of a person's tokens; a fresh proof (the step-up) to make
// one; the audit rows; and the secret nowhere in the store.
import { readFile } from "node:fs/promises";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { operations, type OperationSpec } from "@/lib/api/operations";
import { sealSession } from "@/lib/auth/session";
import { parseDatabaseUrl } from "@/lib/config/store";
import { STEP_UP_MINUTES, TOKEN_SCOPES, type TokenScope } from "@/lib/contract/values";
import { openDb, type Store } from "@/lib/db";
import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";

import {
  TEST_SESSION_SECRET,
  TEST_USER_PASSWORD,
  type GatewayResponse,
  type SignedInClient,
} from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";

const RATE_LIMIT = 60;
/** Every secret this file made: none may appear in the server's output. */
const madeSecrets: string[] = [];

const {
  gateway,
  clients: { admin, support },
} = setUpGateway({
  signIn: ["admin", "support"],
  env: { TRUST_PROXY: "1", TOKEN_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) },
});
let store: Store;

beforeAll(async () => {
  store = await openDb(parseDatabaseUrl(gateway.databaseUrl));
});
afterAll(async () => {
  await store?.close();
});

const json = (body: unknown, method = "POST"): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

async function makeToken(
  client: SignedInClient,
  body: Record<string, unknown>,
): Promise<{ id: string; secret: string; data: Record<string, unknown> }> {
  const res = await client.request("/api/tokens", json({ name: "script", expires_in_days: 30, ...body }));
  expect(res.status, res.text).toBe(201);
  madeSecrets.push(res.json.data.secret);
  return { id: res.json.data.id, secret: res.json.data.secret, data: res.json.data };
}

/** A request with the token only: no cookie, no X-CSRF. */
function withToken(
  secret: string,
  path: string,
  init: RequestInit = {},
  address = "203.0.113.10",
): Promise<GatewayResponse> {
  return gateway.request(path, {
    ...init,
    headers: {
      ...(init.headers as Record<string, string>),
      Authorization: `Bearer ${secret}`,
      "X-Forwarded-For": address,
    },
  });
}

const validate = (secret: string, address?: string) =>
  withToken(secret, "/api/purchases/validate", json({ purchase_code: FIXED_PURCHASE_CODES.active }), address);

type Row = GatewayResponse["json"];

async function auditRows(action: string): Promise<Row[]> {
  const res = await admin.request(`/api/admin/audit?action=${action}&per_page=100`);
  expect(res.status, res.text).toBe(200);
  return res.json.data;
}

describe("making, listing and revoking tokens", () => {
  it("answers 201 with the record and its secret once; the list never shows the secret", async () => {
    const { id, secret, data } = await makeToken(support, { name: "helpdesk", scopes: ["purchases:validate"] });
    expect(secret).toMatch(/^gth_[0-9A-Za-z]{38}$/);
    expect(data).toMatchObject({
      name: "helpdesk",
      scopes: ["purchases:validate"],
      status: "active",
      last_used_at: null,
      user: { email: "support@gatehouse.test", service: false },
    });
    const list = await support.request("/api/tokens");
    expect(list.status).toBe(200);
    expect(list.json.data.map((t: { id: string }) => t.id)).toContain(id);
    expect(list.text).not.toContain(secret);
    const rows = await auditRows("token.create");
    expect(rows.find((row) => row.target?.id === id)).toMatchObject({
      outcome: "success",
      user_email: "support@gatehouse.test",
      target: { type: "token", label: "helpdesk" },
    });
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it("refuses scopes the role lacks, a missing lifetime, never for a person, and a bad range, each naming the field", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: "x", scopes: ["reports:read"], expires_in_days: 30 }, "scopes"],
      [{ name: "x", scopes: ["purchases:validate"] }, "expires_in_days"],
      [{ name: "x", scopes: ["purchases:validate"], never_expires: true }, "never_expires"],
      [{ name: "x", scopes: ["purchases:validate"], expires_in_days: 31 }, "expires_in_days"],
      [{ name: "x", scopes: ["users:manage"], expires_in_days: 30 }, "scopes.0"],
      [
        { name: "x", scopes: ["purchases:validate"], expires_in_days: 30, allowed_ips: ["10.0.0.0/99"] },
        "allowed_ips.0",
      ],
    ];
    for (const [body, field] of cases) {
      const res = await support.request("/api/tokens", json(body));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json.error.fields), JSON.stringify(body)).toEqual([field]);
    }
  });

  it("lets an admin make a never-expiring token for a service account, which cannot sign in", async () => {
    const created = await admin.request(
      "/api/admin/users",
      json({ email: "bot@gatehouse.test", name: "Licence bot", role: "support", service: true }),
    );
    expect(created.status, created.text).toBe(201);
    expect(created.json.data.service).toBe(true);
    const signIn = await gateway.request("/api/auth/login", {
      ...json({ email: "bot@gatehouse.test", password: "anything at all 123" }),
      headers: { "Content-Type": "application/json", "X-CSRF": "1" },
    });
    expect(signIn.status).toBe(401);
    const { secret, data } = await makeToken(admin, {
      user_id: created.json.data.id,
      scopes: ["purchases:validate"],
      expires_in_days: undefined,
      never_expires: true,
    });
    expect(data.expires_at).toBeNull();
    const res = await validate(secret);
    expect(res.status, res.text).toBe(200);
    // The service account's own check is in the history under its name.
    const me = await withToken(secret, "/api/auth/me");
    expect(me.json.data.user.email).toBe("bot@gatehouse.test");
  });
});

describe("Authorization: Bearer", () => {
  it("works without X-CSRF and never sets a session cookie", async () => {
    const { secret } = await makeToken(support, { scopes: ["purchases:validate"] });
    const res = await validate(secret);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.valid).toBe(true);
    expect(res.headers.getSetCookie()).toEqual([]);
    // The same request with the cookie instead still needs X-CSRF.
    const cookie = await gateway.request("/api/purchases/validate", {
      ...json({ purchase_code: FIXED_PURCHASE_CODES.active }),
      headers: { "Content-Type": "application/json", Cookie: support.cookie() },
    });
    expect(cookie.status).toBe(403);
    expect(cookie.json.error.code).toBe("csrf");
  });

  it("allows each scope exactly its routes: every other scoped route is 403 insufficient_scope naming the scope", async () => {
    const scoped = (Object.values(operations) as OperationSpec[]).filter((op) =>
      (TOKEN_SCOPES as readonly string[]).includes(op.permission),
    );
    const pathOf = (op: OperationSpec) =>
      op.path
        .replace("{id}.csv", "00000000-0000-4000-8000-000000000000.csv")
        .replace("{id}", op.path.includes("bulk") ? "00000000-0000-4000-8000-000000000000" : "999999")
        .replace("{project}", "no-such-project");
    for (const scope of TOKEN_SCOPES) {
      const { secret } = await makeToken(admin, { name: `only ${scope}`, scopes: [scope] });
      for (const op of scoped) {
        const init: RequestInit = op.body ? json({}, op.method) : { method: op.method };
        const res = await withToken(secret, pathOf(op), init);
        const label = `${scope} → ${op.method} ${op.path}`;
        if (op.permission === scope) {
          expect([401, 403], `${label}: ${res.text}`).not.toContain(res.status);
        } else {
          expect(res.status, label).toBe(403);
          expect(res.json.error.code, label).toBe("insufficient_scope");
          expect(res.json.error.message, label).toContain(op.permission);
          expect(res.json.error.fields, label).toEqual({ scope: op.permission });
        }
      }
      // Any token may ask who it acts as; none may manage users or tokens.
      expect((await withToken(secret, "/api/auth/me")).status).toBe(200);
      expect((await withToken(secret, "/api/admin/users")).json.error.code).toBe("insufficient_scope");
      const tokenMaking = await withToken(
        secret,
        "/api/tokens",
        json({ name: "x", scopes: [scope], expires_in_days: 7 }),
      );
      expect(tokenMaking.status).toBe(403);
      expect(tokenMaking.json.error.code).toBe("insufficient_scope");
    }
  });

  it("answers 401 with its reason for a malformed, unknown, expired or revoked token", async () => {
    const malformed = await withToken("gth_not-a-token", "/api/auth/me");
    expect([malformed.status, malformed.json.error.code]).toEqual([401, "token_invalid"]);
    // Another kind of bearer is not Gatehouse's to judge: without a session, the answer is the session's 401.
    const foreign = await withToken("some-other-bearer", "/api/auth/me");
    expect([foreign.status, foreign.json.error.code]).toEqual([401, "unauthenticated"]);
    const unknown = await withToken(`gth_${"A".repeat(38)}`, "/api/auth/me");
    expect([unknown.status, unknown.json.error.code]).toEqual([401, "token_invalid"]);

    const expiresAt = new Date(Date.now() + 3_000).toISOString();
    const { secret: shortLived } = await makeToken(support, {
      scopes: ["purchases:validate"],
      expires_in_days: undefined,
      expires_at: expiresAt,
    });
    expect((await withToken(shortLived, "/api/auth/me")).status).toBe(200);
    // Wait for the moment to pass on the server's clock: until then it answers 200.
    let res = await withToken(shortLived, "/api/auth/me");
    for (let i = 0; res.status === 200 && i < 100; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      res = await withToken(shortLived, "/api/auth/me");
    }
    expect([res.status, res.json.error.code]).toEqual([401, "token_expired"]);
    expect(res.json.error.message).toContain(expiresAt.slice(0, 10));

    const { id, secret } = await makeToken(support, { scopes: ["purchases:validate"] });
    expect((await validate(secret)).status).toBe(200);
    const revoked = await support.request(`/api/tokens/${id}`, { method: "DELETE" });
    expect(revoked.status).toBe(200);
    expect(revoked.json.data.status).toBe("revoked");
    const after = await validate(secret);
    expect([after.status, after.json.error.code]).toEqual([401, "token_revoked"]);
    expect((await auditRows("token.revoke")).find((row) => row.target?.id === id)).toMatchObject({
      outcome: "success",
    });
    // Another user's token is not there to revoke.
    const { id: others } = await makeToken(admin, { scopes: ["reports:read"] });
    expect((await support.request(`/api/tokens/${others}`, { method: "DELETE" })).status).toBe(404);
  });

  it("follows the owner: a lowered role is 403 and a disabled owner 401 on the next request", async () => {
    const created = await admin.request(
      "/api/admin/users",
      json({
        email: "editor-tokens@gatehouse.test",
        name: "Ed",
        role: "editor",
        password: "a long password for ed 42",
      }),
    );
    expect(created.status, created.text).toBe(201);
    const editorId = created.json.data.id;
    const { secret } = await makeToken(admin, { user_id: undefined, scopes: ["reports:read"] }); // the admin's own, untouched
    expect((await withToken(secret, "/api/reports")).status).toBe(200);

    const editor = await gateway.signIn({
      email: "editor-tokens@gatehouse.test",
      password: "a long password for ed 42",
    });
    const { secret: editors } = await makeToken(editor, { scopes: ["reports:read", "reports:write"] });
    expect((await withToken(editors, "/api/reports")).status).toBe(200);

    expect((await admin.request(`/api/admin/users/${editorId}`, json({ role: "support" }, "PATCH"))).status).toBe(200);
    const lowered = await withToken(editors, "/api/reports");
    expect([lowered.status, lowered.json.error.code]).toEqual([403, "forbidden"]);

    // Kept (revoke_tokens: false), the token still stops working while its owner is disabled.
    expect(
      (
        await admin.request(
          `/api/admin/users/${editorId}`,
          json({ role: "editor", disabled: true, revoke_tokens: false }, "PATCH"),
        )
      ).status,
    ).toBe(200);
    const disabled = await withToken(editors, "/api/reports");
    expect([disabled.status, disabled.json.error.code]).toEqual([401, "token_revoked"]);
    expect(disabled.json.error.message).toContain("disabled");
  });

  it("is refused outside its allowed client ranges", async () => {
    const { secret } = await makeToken(support, {
      scopes: ["purchases:validate"],
      allowed_ips: ["198.51.100.0/24", "2001:db8::/32"],
    });
    const outside = await validate(secret, "203.0.113.10");
    expect([outside.status, outside.json.error.code]).toEqual([403, "address_not_allowed"]);
    expect((await validate(secret, "198.51.100.77")).status).toBe(200);
    expect((await validate(secret, "2001:db8::1")).status).toBe(200);
  });

  it("records the first use from each address in the audit log, and the token on the operation's row", async () => {
    const { id, secret } = await makeToken(support, { name: "roaming", scopes: ["purchases:validate"] });
    expect((await validate(secret, "198.51.100.1")).status).toBe(200);
    expect((await validate(secret, "198.51.100.1")).status).toBe(200);
    expect((await validate(secret, "198.51.100.2")).status).toBe(200);
    const rows = (await auditRows("token.new_address")).filter((row) => row.target?.id === id);
    expect(rows.map((row) => row.detail.address).sort()).toEqual(["198.51.100.1", "198.51.100.2"]);
    const checks = (await auditRows("purchase.validate")).filter((row) => row.detail?.access_id === id);
    expect(checks).toHaveLength(3);
    expect(checks[0]).toMatchObject({ user_email: "support@gatehouse.test", detail: { access: "api_token" } });
    const listed = (await support.request("/api/tokens")).json.data.find((t: { id: string }) => t.id === id);
    expect(listed).toMatchObject({ last_used_ip: "198.51.100.2" });
    expect(listed.last_used_at).not.toBeNull();
  });

  it(`holds all of a person's tokens to one rate limit: ${RATE_LIMIT} requests a minute together`, async () => {
    const viewer = await gateway.signIn("viewer");
    const [first, second] = [
      await makeToken(viewer, { scopes: ["reports:read"] }),
      await makeToken(viewer, { scopes: ["reports:read"] }),
    ];
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT; i++)
      statuses.push((await withToken(i % 2 === 0 ? first.secret : second.secret, "/api/auth/me")).status);
    expect(new Set(statuses)).toEqual(new Set([200]));
    // A new token buys no more requests: it is held by the same limit.
    const { secret: third } = await makeToken(viewer, { scopes: ["reports:read"] });
    const limited = await withToken(third, "/api/auth/me");
    expect([limited.status, limited.json.error.code]).toEqual([429, "rate_limited"]);
    expect(limited.json.error.message).toContain("all of an account's tokens together");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another person's token is not held by it.
    const { secret: others } = await makeToken(support, { scopes: ["purchases:validate"] });
    expect((await withToken(others, "/api/auth/me")).status).toBe(200);
  });
});

describe(`making a token when the session's last proof is more than ${STEP_UP_MINUTES} minutes old`, () => {
  /** support's session as the gateway would have sealed it, signed in (and last proven) `minutes` ago. */
  async function sessionProvenAgo(minutes: number): Promise<string> {
    const me = await support.request("/api/auth/me");
    const row = await store.db
      .selectFrom("users")
      .select("session_version")
      .where("id", "=", me.json.data.user.id)
      .executeTakeFirstOrThrow();
    const now = Date.now();
    const data = {
      userId: me.json.data.user.id,
      sessionVersion: Number(row.session_version),
      issuedAt: now - minutes * 60_000,
      lastSeenAt: now,
      verifiedAt: now - minutes * 60_000,
    };
    return `gatehouse_session=${await sealSession(data, { secrets: [TEST_SESSION_SECRET], absoluteMs: 86_400_000, idleMs: 86_400_000, secure: false })}`;
  }

  const headers = (cookie: string) => ({
    Cookie: cookie,
    "X-CSRF": "1",
    "Content-Type": "application/json",
    "X-Forwarded-For": "203.0.113.99",
  });
  const post = (cookie: string) =>
    gateway.request("/api/tokens", {
      method: "POST",
      headers: headers(cookie),
      body: JSON.stringify({ name: "later", scopes: ["purchases:validate"], expires_in_days: 30 }),
    });
  const stepUp = (cookie: string, password: string) =>
    gateway.request("/api/auth/step-up", {
      method: "POST",
      headers: headers(cookie),
      body: JSON.stringify({ method: "password", password }),
    });

  it("asks for a fresh proof (403 step_up_required); a wrong password makes nothing, the right one lets it through", async () => {
    const cookie = await sessionProvenAgo(STEP_UP_MINUTES + 1);
    const without = await post(cookie);
    expect([without.status, without.json.error.code], without.text).toEqual([403, "step_up_required"]);
    expect(without.json.error.message).toContain(`more than ${STEP_UP_MINUTES} minutes old`);
    expect(without.json.error.message).toContain("your password");
    const wrong = await stepUp(cookie, "not the password of this account");
    expect([wrong.status, wrong.json.error.code]).toEqual([401, "invalid_credentials"]);
    expect((await post(cookie)).status).toBe(403);

    const right = await stepUp(cookie, TEST_USER_PASSWORD);
    expect(right.status, right.text).toBe(200);
    const proven = right.headers
      .getSetCookie()
      .map((line) => line.split(";", 1)[0]!)
      .find((pair) => pair.startsWith("gatehouse_session="));
    expect(proven).toBeTruthy();
    // The token body takes no password any more: the proof is the step-up's.
    const old = await gateway.request("/api/tokens", {
      method: "POST",
      headers: headers(proven!),
      body: JSON.stringify({ name: "x", scopes: ["purchases:validate"], expires_in_days: 30, password: "x" }),
    });
    expect([old.status, Object.keys(old.json.error.fields ?? {})], old.text).toEqual([400, ["password"]]);
    const made = await post(proven!);
    expect(made.status, made.text).toBe(201);
    madeSecrets.push(made.json.data.secret);
  });

  it("needs no proof within them", async () => {
    const res = await post(await sessionProvenAgo(STEP_UP_MINUTES - 1));
    expect(res.status, res.text).toBe(201);
    madeSecrets.push(res.json.data.secret);
  });
});

describe("the secret at rest and in the OpenAPI document", () => {
  it("is in the store only as a one-way hash", async () => {
    const secrets = [
      (await makeToken(support, { scopes: ["purchases:validate"] })).secret,
      (await makeToken(admin, { scopes: ["audit:read" as TokenScope] })).secret,
    ];
    const files = await Promise.all(
      [gateway.databaseUrl, `${gateway.databaseUrl}-wal`].map((file) => readFile(file).catch(() => Buffer.alloc(0))),
    );
    const bytes = Buffer.concat(files);
    for (const secret of secrets) {
      for (const form of [
        secret,
        secret.slice(4),
        secret.slice(4, 20),
        Buffer.from(secret).toString("base64"),
        Buffer.from(secret).toString("hex"),
      ]) {
        expect(bytes.includes(Buffer.from(form)), form).toBe(false);
      }
    }
  });

  it("never appears in the server's log lines, nor does a password sent to confirm one", () => {
    expect(madeSecrets.length).toBeGreaterThan(10);
    const output = gateway.output().join("\n");
    for (const secret of madeSecrets) expect(output.includes(secret.slice(4)), secret).toBe(false);
    for (const password of [TEST_USER_PASSWORD, "not the password of this account"])
      expect(output.includes(password), password).toBe(false);
  });

  it("describes both ways in and each operation's scope", async () => {
    const doc = (await gateway.request("/api/openapi.json")).json;
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["apiToken", "session"]);
    expect(doc.components.securitySchemes.apiToken).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.paths["/api/purchases/validate"].post.security).toEqual([
      { session: [] },
      { apiToken: ["purchases:validate"] },
    ]);
    expect(doc.paths["/api/purchases/validate"].post["x-token-scope"]).toBe("purchases:validate");
    expect(doc.paths["/api/tokens"].post.security).toEqual([{ session: [] }]);
    expect(doc.paths["/api/admin/users"].get.security).toEqual([{ session: [] }]);
    expect(doc.paths["/api/health"].get.security).toEqual([]);
  });
});
