// The production build (`next start`) on PostgreSQL, over real HTTP. The store tests run the repositories
// unbundled; here the bundler has split the server into chunks, each with its own copy of Kysely and of our
// modules, while the store, the upstream policies and the configuration are shared by the process. Decisions that
// rested on class identity (`instanceof PostgresAdapter`, `instanceof UpstreamError`) failed only here: every
// write transaction answered 500 on PostgreSQL, and an open breaker answered 500 instead of 503.
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CANARY } from "@/tests/support/canary";
import { sandboxEnv, startGateway, type GatewayProcess, type SignedInClient } from "@/tests/support/gateway";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";

import { startTestPostgres, type TestPostgres } from "@/tests/support/postgres";

const VALIDATION_PATH = "/market/api/purchases/validation";
const json = (method: string, body: unknown): RequestInit => ({ method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

let postgres: TestPostgres;
let sandbox: TestSandbox;
let gateway: GatewayProcess;
let admin: SignedInClient;

beforeAll(async () => {
  [postgres, sandbox] = await Promise.all([
    startTestPostgres(),
    startTestSandbox({ extraKeys: { reports: [CANARY.reports], items: { [CANARY.items]: "main" } } }),
  ]);
  const databaseUrl = await postgres.createDatabase();
  // The breaker opens after two failed attempts and stays open for the whole file.
  gateway = await startGateway(sandboxEnv(sandbox, { DATABASE_URL: databaseUrl, UPSTREAM_BREAKER_FAILURES: "2", UPSTREAM_BREAKER_OPEN_MS: "600000" }));
  admin = await gateway.signIn("admin");
}, 90_000);

afterAll(async () => {
  gateway?.assertNoKeyLeaked();
  await gateway?.stop();
  await sandbox?.close();
  await postgres?.stop();
});

describe("the breaker, when a page render was the first upstream call of the process", () => {
  it("pages show the failure card, the API answers 503 upstream_unavailable, readiness 503", async () => {
    await sandbox.injectFault({ path: "/seo/*", kind: "status", status: 500 });
    // The reports page asks for reports and for the project names: two failures open area A's breaker.
    const first = await admin.request("/reports");
    expect(first.status).toBe(200);
    expect(first.text).toContain("The reports could not be loaded");
    const open = await admin.request("/reports");
    expect(open.status).toBe(200);
    expect(open.text).toMatch(/The reports service is not answering; retrying in \d+ s/);

    const api = await admin.request("/api/reports");
    expect(api.status, api.text).toBe(503);
    expect(api.json.error.code).toBe("upstream_unavailable");
    expect(Number(api.headers.get("retry-after"))).toBeGreaterThan(0);
    const ready = await gateway.request("/api/ready");
    expect(ready.status, ready.text).toBe(503);
    await sandbox.clearFaults();
  });
});

describe("admin changes", () => {
  it("creates a user, changes his role and disables him; each change ends his sessions", async () => {
    const created = await admin.request("/api/admin/users", json("POST", { email: "pg-user@gatehouse.test", name: "Pat", role: "viewer", password: "a password for pat" }));
    expect(created.status, created.text).toBe(201);
    const pat = await gateway.signIn({ email: "pg-user@gatehouse.test", password: "a password for pat" });

    const promoted = await admin.request(`/api/admin/users/${created.json.data.id}`, json("PATCH", { role: "editor" }));
    expect(promoted.status, promoted.text).toBe(200);
    expect(promoted.json.data.role).toBe("editor");
    expect((await pat.request("/api/auth/me")).status).toBe(401);

    const disabled = await admin.request(`/api/admin/users/${created.json.data.id}`, json("PATCH", { disabled: true }));
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.json.data.disabled).toBe(true);
    // The last active admin is still protected, which takes the row locks only PostgreSQL has.
    const demote = await admin.request(`/api/admin/users/${admin.user.id}`, json("PATCH", { role: "viewer" }));
    expect(demote.status).toBe(409);
    expect(demote.json.error.code).toBe("last_admin");
  });
});

describe("bulk purchase checks", () => {
  it("creates a job and cancels it while it runs", async () => {
    await sandbox.injectFault({ method: "POST", path: VALIDATION_PATH, kind: "latency", latencyMs: 500 });
    const codes = Array.from({ length: 30 }, (_, n) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`);
    const created = await admin.request("/api/purchases/bulk", json("POST", { codes }));
    expect(created.status, created.text).toBe(202);
    expect(created.json.data.total).toBe(30);

    const cancelled = await admin.request(`/api/purchases/bulk/${created.json.data.id}`, { method: "DELETE" });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.json.data.status).toBe("cancelled");
    const job = await admin.request(`/api/purchases/bulk/${created.json.data.id}`);
    expect(job.json.data).toMatchObject({ status: "cancelled", total: 30 });
    expect(job.json.data.cancelled).toBeGreaterThan(0);
    await sandbox.clearFaults();
  });
});
