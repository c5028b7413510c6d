// The step-up over real HTTP (next start ↔ sandbox, on SQLite and on PostgreSQL): a session whose last proof is
// more than STEP_UP_MINUTES old is refused every sensitive action (403 step_up_required, with a sentence naming what
// he can confirm with) until POST /api/auth/step-up takes his password; a wrong password there counts toward the
// sign-in throttle; a fresh sign-in (or a session sealed before verifiedAt existed, by its sign-in) needs none; an
// API token is never asked (it cannot answer a dialog), and no token scope reaches a sensitive action anyway.
import { randomBytes } from "node:crypto";

import { describe, expect, it } from "vitest";

import { operations, type OperationSpec } from "@/lib/api/operations";
import { sealSession, unsealSession } from "@/lib/auth/session";
import { STEP_UP_MINUTES } from "@/lib/contract/values";

import { CANARY } from "@/tests/support/canary";
import { TEST_ADMIN, TEST_USER_PASSWORD, type GatewayResponse, type SignedInClient } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";
import { bothServerStores } from "@/tests/support/store-backends";

/** The sensitive actions: what the table marks, named here by hand so that a mark dropped or added is seen. */
const SENSITIVE = [
  "createToken",
  "updateUser",
  "createWebhook",
  "setUpstreamKey",
  "restoreUpstreamKey",
  "createNotificationChannel",
  // A second factor removed, recovery codes made anew, the policy changed: each weakens or hands out a way in.
  "removeTotp",
  "regenerateRecoveryCodes",
  "saveSignInPolicy",
].sort();

const SOME_ID = "6f1c2f7e-1d1b-4b8e-9a51-7d3c1c7f0a11";
/** A request path for an operation, its path parameters filled in (refused before they are read). */
const pathOf = (spec: OperationSpec) =>
  spec.path.replace("{area}", "reports").replace("{id}", SOME_ID).replace("{delivery}", SOME_ID);

describe.each(bothServerStores())("on $name", (serverStore) => {
  const {
    gateway,
    clients: { admin, support, editor },
  } = setUpGateway({
    store: serverStore,
    signIn: ["admin", "support", "editor"],
    sandbox: { extraKeys: { reports: [CANARY.portalReports, CANARY.portalReportsNext] } },
    // Area A's key is kept in the portal (so that it can be set and restored); any webhook address is accepted
    // (none is called); the client's address is read from X-Forwarded-For (the throttle counts per address).
    env: {
      REPORTS_API_KEY: undefined,
      GATEHOUSE_KEK: randomBytes(32).toString("base64"),
      WEBHOOK_ALLOW_PRIVATE: "1",
      TRUST_PROXY: "1",
    },
  });

  const settings = () => ({
    secrets: [gateway.env.SESSION_SECRET!],
    absoluteMs: 86_400_000,
    idleMs: 86_400_000,
    secure: false,
  });

  /** The client's session as the gateway would have sealed it, signed in (and last proven) `minutes` ago. */
  async function provenAgo(client: SignedInClient, minutes: number, { verifiedAt = true } = {}): Promise<string> {
    const [name, value] = client.cookie().split("=", 2) as [string, string];
    const session = await unsealSession(value, settings());
    const then = Date.now() - minutes * 60_000;
    const { verifiedAt: _now, ...rest } = session!;
    const aged = { ...rest, issuedAt: then, ...(verifiedAt ? { verifiedAt: then } : {}) };
    return `${name}=${await sealSession(aged, settings())}`;
  }

  const send = (cookie: string, method: string, path: string, body?: unknown, address = "203.0.113.7") =>
    gateway.request(path, {
      method,
      headers: {
        Cookie: cookie,
        "X-CSRF": "1",
        "X-Forwarded-For": address,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const stepUp = (cookie: string, password: string, address?: string) =>
    send(cookie, "POST", "/api/auth/step-up", { method: "password", password }, address);
  const sessionSetBy = (res: GatewayResponse) =>
    res.headers
      .getSetCookie()
      .map((line) => line.split(";", 1)[0]!)
      .find((pair) => pair.startsWith("gatehouse_session="));

  it("marks exactly the sensitive actions", () => {
    const marked = Object.values(operations as Record<string, OperationSpec>)
      .filter((spec) => spec.stepUp)
      .map((spec) => spec.id)
      .sort();
    expect(marked).toEqual(SENSITIVE);
  });

  it(`refuses each sensitive action ${STEP_UP_MINUTES} minutes after the last proof, and does it after a step-up with the password`, async () => {
    const aged = await provenAgo(admin, STEP_UP_MINUTES + 1);
    for (const id of SENSITIVE) {
      const spec = (operations as Record<string, OperationSpec>)[id]!;
      const refused = await send(aged, spec.method, pathOf(spec), {});
      expect([refused.status, refused.json?.error?.code], `${id}: ${refused.text}`).toEqual([403, "step_up_required"]);
      expect(refused.json.error.message, id).toContain(`more than ${STEP_UP_MINUTES} minutes old`);
      expect(refused.json.error.message, id).toContain("your password");
    }
    // What is not sensitive goes on with the same session.
    expect((await send(aged, "GET", "/api/admin/users")).status).toBe(200);

    const wrong = await stepUp(aged, "not the admin's password");
    expect([wrong.status, wrong.json.error.code]).toEqual([401, "invalid_credentials"]);
    const right = await stepUp(aged, TEST_ADMIN.password);
    expect(right.status, right.text).toBe(200);
    expect(right.json.data).toMatchObject({ method: "password" });
    expect(Date.parse(right.json.data.fresh_until) - Date.parse(right.json.data.verified_at)).toBe(
      STEP_UP_MINUTES * 60_000,
    );
    const proven = sessionSetBy(right)!;
    expect(proven).toBeTruthy();
    // The same session, proven: its start (and so its absolute expiry) is kept.
    const before = await unsealSession(aged.split("=", 2)[1], settings());
    const after = await unsealSession(proven.split("=", 2)[1], settings());
    expect(after).toMatchObject({ userId: before!.userId, issuedAt: before!.issuedAt });
    expect(after!.verifiedAt).toBeGreaterThan(before!.verifiedAt!);

    const done = async (method: string, path: string, body: unknown, status: number) => {
      const res = await send(proven, method, path, body);
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
      return res;
    };
    await done("POST", "/api/admin/upstream-keys/reports", { key: CANARY.portalReports }, 201);
    await done("POST", "/api/admin/upstream-keys/reports", { key: CANARY.portalReportsNext }, 201);
    const keys = await send(proven, "GET", "/api/admin/upstream-keys");
    const earlier = keys.json.data
      .find((area: { area: string }) => area.area === "reports")
      .stored.find((key: { active: boolean }) => !key.active);
    await done("POST", `/api/admin/upstream-keys/reports/${earlier.id}/restore`, undefined, 200);
    await done("POST", "/api/tokens", { name: "after a step-up", scopes: ["audit:read"], expires_in_days: 7 }, 201);
    await done("POST", "/api/admin/webhooks", { url: "https://127.0.0.1:9/hook", events: ["report.created"] }, 201);
    await done(
      "POST",
      "/api/admin/notifications/channels",
      { kind: "email", name: "Ops", target: "ops@example.com" },
      201,
    );
    await done("PATCH", `/api/admin/users/${support.user.id}`, { role: "editor" }, 200);
    await done("PUT", "/api/admin/sign-in-policy", { second_factor_policy: "off" }, 200);
    // Past the step-up, the admin's own answers: no app to remove, no factor to make codes for.
    await done("DELETE", "/api/auth/totp", undefined, 404);
    await done("POST", "/api/auth/recovery-codes", undefined, 409);

    const audit = await admin.request("/api/admin/audit?action=auth.step_up&per_page=10");
    expect(audit.json.data[0]).toMatchObject({ outcome: "success", user_email: admin.user.email });
    const failed = await admin.request("/api/admin/audit?action=auth.step_up_failed&per_page=10");
    expect(failed.json.data[0]).toMatchObject({ outcome: "failure", user_email: admin.user.email });
    expect(JSON.stringify([audit.json, failed.json])).not.toContain(TEST_ADMIN.password);
  });

  it("counts a wrong password toward the sign-in throttle: the sixth try from that address is refused, right or not", async () => {
    const aged = await provenAgo(editor, STEP_UP_MINUTES + 1);
    const address = "198.51.100.36";
    for (let i = 0; i < 5; i++) {
      const wrong = await stepUp(aged, `not the password ${i}`, address);
      expect([wrong.status, wrong.json.error.code], wrong.text).toEqual([401, "invalid_credentials"]);
    }
    const refused = await stepUp(aged, TEST_USER_PASSWORD, address);
    expect([refused.status, refused.json.error.code], refused.text).toEqual([429, "rate_limited"]);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // The same throttle as signing in: the password from that address is refused there too.
    const login = await gateway.request("/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF": "1", "X-Forwarded-For": address },
      body: JSON.stringify({ email: editor.user.email, password: TEST_USER_PASSWORD }),
    });
    expect(login.status, login.text).toBe(429);
    expect(sessionSetBy(refused)).toBeUndefined();
    expect((await send(aged, "POST", "/api/tokens", {})).status).toBe(403);
  });

  it("asks nothing of a fresh sign-in, nor of a session sealed before verifiedAt existed while its sign-in is recent", async () => {
    const fresh = await gateway.signIn("admin");
    const made = await fresh.request("/api/tokens", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "fresh", scopes: ["audit:read"], expires_in_days: 7 }),
    });
    expect(made.status, made.text).toBe(201);

    const older = await provenAgo(fresh, STEP_UP_MINUTES - 1, { verifiedAt: false });
    expect(
      (await send(older, "POST", "/api/tokens", { name: "old", scopes: ["audit:read"], expires_in_days: 7 })).status,
    ).toBe(201);
    const tooOld = await provenAgo(fresh, STEP_UP_MINUTES + 1, { verifiedAt: false });
    expect((await send(tooOld, "POST", "/api/tokens", {})).json.error.code).toBe("step_up_required");
  });

  it("never asks an API token: a token reaches no sensitive action (insufficient_scope), whatever its age", async () => {
    const fresh = await gateway.signIn("admin");
    const made = await fresh.request("/api/tokens", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "script", scopes: ["audit:read"], expires_in_days: 7 }),
    });
    expect(made.status, made.text).toBe(201);
    for (const id of SENSITIVE) {
      const spec = (operations as Record<string, OperationSpec>)[id]!;
      const res = await gateway.request(pathOf(spec), {
        method: spec.method,
        headers: { Authorization: `Bearer ${made.json.data.secret}`, "Content-Type": "application/json" },
        body: "{}",
      });
      expect([res.status, res.json.error.code], `${id}: ${res.text}`).toEqual([403, "insufficient_scope"]);
    }
    // Nor can a token give a proof: the step-up is for a signed-in session.
    const proof = await gateway.request("/api/auth/step-up", {
      method: "POST",
      headers: { Authorization: `Bearer ${made.json.data.secret}`, "Content-Type": "application/json" },
      body: JSON.stringify({ method: "password", password: TEST_ADMIN.password }),
    });
    expect([proof.status, proof.json.error.code]).toEqual([403, "insufficient_scope"]);
  });
});
