// Who may do what, over real HTTP (next start ↔ sandbox, real SQLite): every API route × anonymous and each
// role with the status the accounts issue's table implies (written out here, not derived from the code), the
// cheap page redirect of proxy.ts, the CSRF rule, and the security headers on pages, API answers and files.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";

import type { Role } from "@/lib/contract/values";
import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";

import type { GatewayResponse } from "@/tests/support/gateway";
import type { LoggedRequest } from "@/tests/support/sandbox";
import { setUpGateway } from "@/tests/support/set-up-gateway";

type Who = "anonymous" | Role;
const EVERYONE: Who[] = ["anonymous", "admin", "editor", "viewer", "support"];

const { sandbox, gateway, clients } = setUpGateway({ signIn: ["admin", "editor", "viewer", "support"] });

/** Per-role things to change, so that every allowed change succeeds and every refused one has a real target. */
const fixtures = {
  reportToUpdate: {} as Record<Who, number>,
  reportToDelete: {} as Record<Who, number>,
  projectToDelete: {} as Record<Who, string>,
  itemId: 0,
  userToPatch: "",
  /** A bulk job each role may read and cancel: its own, or the admin's for roles refused before the lookup. */
  bulkJob: {} as Record<Who, string>,
  /** A password-protected report whose password Gatehouse set, so that an allowed reveal succeeds. */
  reportWithPassword: 0,
};

const jsonInit = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

beforeAll(async () => {
  const admin = clients.admin;
  for (const who of EVERYONE) {
    const create = async (url: string) => (await admin.request("/api/reports", jsonInit("POST", { url }))).json.data;
    fixtures.reportToUpdate[who] = (await create(`https://update-${who}.matrix.example/`)).id;
    fixtures.reportToDelete[who] = (await create(`https://delete-${who}.matrix.example/`)).id;
    fixtures.projectToDelete[who] = (await create(`https://project-${who}.matrix.example/`)).project;
  }
  fixtures.reportWithPassword = (
    await admin.request(
      "/api/reports",
      jsonInit("POST", { url: "https://password.matrix.example/", privacy: 2, password: "matrix secret" }),
    )
  ).json.data.id;
  fixtures.itemId = (await admin.request("/api/items")).json.data[0].id;
  const target = await admin.request(
    "/api/admin/users",
    jsonInit("POST", {
      email: "patch-target@matrix.test",
      name: "Patch Target",
      role: "viewer",
      password: "patch target password",
    }),
  );
  fixtures.userToPatch = target.json.data.id;
  for (const who of EVERYONE) {
    const owner = who !== "anonymous" && VALIDATE_PURCHASES.includes(who) ? clients[who] : admin;
    const job = await owner.request("/api/purchases/bulk", jsonInit("POST", { codes: [FIXED_PURCHASE_CODES.expired] }));
    fixtures.bulkJob[who] = job.json.data.id;
  }
});

interface MatrixRoute {
  name: string;
  /** Roles the table allows; "public" and "signed-in" as the words say. */
  allowed: Role[] | "public" | "signed-in";
  success: number;
  request: (who: Who) => { path: string; init?: RequestInit };
}

const READ_REPORTS: Role[] = ["admin", "editor", "viewer"];
const WRITE_REPORTS: Role[] = ["admin", "editor"];
const READ_ITEMS: Role[] = ["admin", "editor", "viewer", "support"];
const VALIDATE_PURCHASES: Role[] = ["admin", "editor", "support"];
const MANAGE_USERS: Role[] = ["admin"];

const ROUTES: MatrixRoute[] = [
  { name: "GET /api/reports", allowed: READ_REPORTS, success: 200, request: () => ({ path: "/api/reports" }) },
  { name: "GET /api/reports/{id}", allowed: READ_REPORTS, success: 200, request: () => ({ path: "/api/reports/1" }) },
  {
    name: "POST /api/reports",
    allowed: WRITE_REPORTS,
    success: 201,
    request: (who) => ({
      path: "/api/reports",
      init: jsonInit("POST", { url: `https://created-by-${who}.matrix.example/` }),
    }),
  },
  {
    name: "PATCH /api/reports/{id}",
    allowed: WRITE_REPORTS,
    success: 200,
    request: (who) => ({
      path: `/api/reports/${fixtures.reportToUpdate[who]}`,
      init: jsonInit("PATCH", { privacy: 1 }),
    }),
  },
  {
    name: "DELETE /api/reports/{id}",
    allowed: WRITE_REPORTS,
    success: 204,
    request: (who) => ({ path: `/api/reports/${fixtures.reportToDelete[who]}`, init: { method: "DELETE" } }),
  },
  { name: "GET /api/projects", allowed: READ_REPORTS, success: 200, request: () => ({ path: "/api/projects" }) },
  {
    name: "DELETE /api/projects/{project}",
    allowed: WRITE_REPORTS,
    success: 204,
    request: (who) => ({
      path: `/api/projects/${encodeURIComponent(fixtures.projectToDelete[who])}`,
      init: { method: "DELETE" },
    }),
  },
  {
    name: "GET /api/reports/{id}/history",
    allowed: READ_REPORTS,
    success: 200,
    request: () => ({ path: "/api/reports/1/history" }),
  },
  {
    name: "POST /api/reports/{id}/password",
    allowed: WRITE_REPORTS,
    success: 200,
    request: () => ({ path: `/api/reports/${fixtures.reportWithPassword}/password`, init: { method: "POST" } }),
  },
  { name: "GET /api/trends", allowed: READ_REPORTS, success: 200, request: () => ({ path: "/api/trends?days=90" }) },
  {
    name: "GET /api/trends/projects",
    allowed: READ_REPORTS,
    success: 200,
    request: () => ({ path: "/api/trends/projects" }),
  },
  {
    name: "GET /api/projects/{project}/compare",
    allowed: READ_REPORTS,
    success: 200,
    request: () => ({ path: "/api/projects/acme-tools.io/compare?from=2026-10-01&to=2026-11-01" }),
  },
  {
    name: "GET /api/projects/{project}/schedule",
    allowed: READ_REPORTS,
    success: 200,
    request: () => ({ path: "/api/projects/acme-tools.io/schedule" }),
  },
  {
    name: "POST /api/projects/{project}/schedule",
    allowed: WRITE_REPORTS,
    success: 200,
    request: (who) => ({
      path: `/api/projects/schedule-${who}.matrix.example/schedule`,
      init: jsonInit("POST", { enabled: true, frequency: "daily", time: "03:00", time_zone: "UTC" }),
    }),
  },
  {
    name: "DELETE /api/projects/{project}/schedule",
    allowed: WRITE_REPORTS,
    success: 204,
    request: (who) => ({ path: `/api/projects/schedule-${who}.matrix.example/schedule`, init: { method: "DELETE" } }),
  },
  {
    name: "POST /api/projects/{project}/schedule/runs",
    allowed: WRITE_REPORTS,
    success: 202,
    // A project of no reports per role: its run ends at once, and no role's run waits for another's.
    request: (who) => ({ path: `/api/projects/runs-${who}.matrix.example/schedule/runs`, init: { method: "POST" } }),
  },
  {
    name: "GET /api/projects/{project}/alert-rule",
    allowed: READ_REPORTS,
    success: 200,
    request: () => ({ path: "/api/projects/acme-tools.io/alert-rule" }),
  },
  {
    name: "POST /api/projects/{project}/alert-rule",
    allowed: WRITE_REPORTS,
    success: 200,
    request: (who) => ({
      path: `/api/projects/rule-${who}.matrix.example/alert-rule`,
      init: jsonInit("POST", { rule: "to_bad" }),
    }),
  },
  { name: "GET /api/alerts", allowed: READ_REPORTS, success: 200, request: () => ({ path: "/api/alerts?status=all" }) },
  {
    name: "GET /api/alerts/count",
    allowed: READ_REPORTS,
    success: 200,
    request: () => ({ path: "/api/alerts/count" }),
  },
  {
    name: "POST /api/alerts/acknowledge",
    allowed: READ_REPORTS,
    success: 200,
    request: () => ({ path: "/api/alerts/acknowledge", init: jsonInit("POST", { all: true }) }),
  },
  { name: "GET /api/account", allowed: READ_ITEMS, success: 200, request: () => ({ path: "/api/account" }) },
  { name: "GET /api/items", allowed: READ_ITEMS, success: 200, request: () => ({ path: "/api/items" }) },
  {
    name: "GET /api/items/{id}",
    allowed: READ_ITEMS,
    success: 200,
    request: () => ({ path: `/api/items/${fixtures.itemId}` }),
  },
  {
    name: "POST /api/purchases/validate",
    allowed: VALIDATE_PURCHASES,
    success: 200,
    request: () => ({
      path: "/api/purchases/validate",
      init: jsonInit("POST", { purchase_code: FIXED_PURCHASE_CODES.active }),
    }),
  },
  {
    name: "GET /api/purchases/history",
    allowed: VALIDATE_PURCHASES,
    success: 200,
    request: () => ({ path: "/api/purchases/history" }),
  },
  {
    name: "GET /api/purchases/support-expiring",
    allowed: VALIDATE_PURCHASES,
    success: 200,
    request: () => ({ path: "/api/purchases/support-expiring" }),
  },
  {
    name: "GET /api/purchases/history.csv",
    allowed: VALIDATE_PURCHASES,
    success: 200,
    request: () => ({ path: "/api/purchases/history.csv" }),
  },
  {
    name: "POST /api/purchases/history/search",
    allowed: VALIDATE_PURCHASES,
    success: 200,
    request: () => ({
      path: "/api/purchases/history/search",
      init: jsonInit("POST", { code: FIXED_PURCHASE_CODES.active }),
    }),
  },
  {
    name: "POST /api/licences/activations/search",
    allowed: VALIDATE_PURCHASES,
    success: 200,
    request: () => ({
      path: "/api/licences/activations/search",
      init: jsonInit("POST", { purchase_code: FIXED_PURCHASE_CODES.active }),
    }),
  },
  {
    name: "POST /api/purchases/history/search.csv",
    allowed: VALIDATE_PURCHASES,
    success: 200,
    request: () => ({
      path: "/api/purchases/history/search.csv",
      init: jsonInit("POST", { code: FIXED_PURCHASE_CODES.active }),
    }),
  },
  {
    name: "GET /api/purchases/bulk",
    allowed: VALIDATE_PURCHASES,
    success: 200,
    request: () => ({ path: "/api/purchases/bulk" }),
  },
  {
    name: "POST /api/purchases/bulk",
    allowed: VALIDATE_PURCHASES,
    success: 202,
    request: () => ({ path: "/api/purchases/bulk", init: jsonInit("POST", { codes: [FIXED_PURCHASE_CODES.active] }) }),
  },
  {
    name: "GET /api/purchases/bulk/{id}",
    allowed: VALIDATE_PURCHASES,
    success: 200,
    request: (who) => ({ path: `/api/purchases/bulk/${fixtures.bulkJob[who]}` }),
  },
  {
    name: "GET /api/purchases/bulk/{id}.csv",
    allowed: VALIDATE_PURCHASES,
    success: 200,
    request: (who) => ({ path: `/api/purchases/bulk/${fixtures.bulkJob[who]}.csv` }),
  },
  {
    name: "GET /api/purchases/bulk/{id}/results",
    allowed: VALIDATE_PURCHASES,
    success: 200,
    request: (who) => ({ path: `/api/purchases/bulk/${fixtures.bulkJob[who]}/results?status=valid&q=2222` }),
  },
  {
    // The job's one code is valid: nothing a retry could change, so an allowed role reaches the job and gets 409.
    name: "POST /api/purchases/bulk/{id}/recheck",
    allowed: VALIDATE_PURCHASES,
    success: 409,
    request: (who) => ({ path: `/api/purchases/bulk/${fixtures.bulkJob[who]}/recheck`, init: { method: "POST" } }),
  },
  {
    name: "DELETE /api/purchases/bulk/{id}",
    allowed: VALIDATE_PURCHASES,
    success: 200,
    request: (who) => ({ path: `/api/purchases/bulk/${fixtures.bulkJob[who]}`, init: { method: "DELETE" } }),
  },
  { name: "GET /api/auth/me", allowed: "signed-in", success: 200, request: () => ({ path: "/api/auth/me" }) },
  {
    name: "PATCH /api/auth/me",
    allowed: "signed-in",
    success: 200,
    request: () => ({ path: "/api/auth/me", init: jsonInit("PATCH", { time_zone: null }) }),
  },
  { name: "GET /api/admin/users", allowed: MANAGE_USERS, success: 200, request: () => ({ path: "/api/admin/users" }) },
  {
    name: "POST /api/admin/users",
    allowed: MANAGE_USERS,
    success: 201,
    request: (who) => ({
      path: "/api/admin/users",
      init: jsonInit("POST", {
        email: `made-by-${who}@matrix.test`,
        name: "Made",
        role: "viewer",
        password: "a long enough password",
      }),
    }),
  },
  {
    name: "PATCH /api/admin/users/{id}",
    allowed: MANAGE_USERS,
    success: 200,
    request: (who) => ({
      path: `/api/admin/users/${fixtures.userToPatch}`,
      init: jsonInit("PATCH", { name: `Renamed by ${who}` }),
    }),
  },
  {
    name: "POST /api/admin/users/{id}/unlock",
    allowed: MANAGE_USERS,
    success: 200,
    request: () => ({ path: `/api/admin/users/${fixtures.userToPatch}/unlock`, init: { method: "POST" } }),
  },
  { name: "GET /api/admin/audit", allowed: MANAGE_USERS, success: 200, request: () => ({ path: "/api/admin/audit" }) },
  // webhooks:manage, an admin's alone, as users:manage is.
  {
    name: "GET /api/admin/helpdesk",
    allowed: MANAGE_USERS,
    success: 200,
    request: () => ({ path: "/api/admin/helpdesk" }),
  },
  {
    name: "GET /api/admin/notifications/channels",
    allowed: MANAGE_USERS,
    success: 200,
    request: () => ({ path: "/api/admin/notifications/channels" }),
  },
  {
    name: "GET /api/admin/notifications/smtp",
    allowed: MANAGE_USERS,
    success: 200,
    request: () => ({ path: "/api/admin/notifications/smtp" }),
  },
  // purchases:manage, an admin's alone.
  {
    name: "GET /api/admin/purchase-lifecycle",
    allowed: MANAGE_USERS,
    success: 200,
    request: () => ({ path: "/api/admin/purchase-lifecycle" }),
  },
  {
    name: "PUT /api/admin/purchase-lifecycle/items/{id}",
    allowed: MANAGE_USERS,
    success: 200,
    request: (who) => ({
      path: `/api/admin/purchase-lifecycle/items/${fixtures.itemId}`,
      init: jsonInit("PUT", { renewal_url: `https://example.com/renew/${who}` }),
    }),
  },
  // licences:manage, an admin's alone.
  {
    name: "GET /api/admin/licences",
    allowed: MANAGE_USERS,
    success: 200,
    request: () => ({ path: "/api/admin/licences" }),
  },
  {
    name: "PUT /api/admin/licences/items/{id}",
    allowed: MANAGE_USERS,
    success: 200,
    request: () => ({
      path: `/api/admin/licences/items/${fixtures.itemId}`,
      init: jsonInit("PUT", {
        enabled: false,
        limits: { regular: 1, extended: 5 },
        never_count: ["localhost"],
        revoked_deactivates: true,
      }),
    }),
  },
  // Notifications (issue 35): a person's own, any signed-in role (the topics his role allows are checked inside);
  // a channel's, webhooks:manage (an unknown channel: 404 once allowed).
  {
    name: "GET /api/notifications/subscriptions",
    allowed: "signed-in",
    success: 200,
    request: () => ({ path: "/api/notifications/subscriptions" }),
  },
  {
    name: "PUT /api/notifications/subscriptions",
    allowed: "signed-in",
    success: 200,
    request: () => ({ path: "/api/notifications/subscriptions", init: jsonInit("PUT", { subscriptions: [] }) }),
  },
  {
    name: "GET /api/notifications/preferences",
    allowed: "signed-in",
    success: 200,
    request: () => ({ path: "/api/notifications/preferences" }),
  },
  {
    name: "PUT /api/notifications/preferences",
    allowed: "signed-in",
    success: 200,
    request: () => ({
      path: "/api/notifications/preferences",
      init: jsonInit("PUT", { email_enabled: true, quiet_hours: null, digest: { enabled: true, day: 1, hour: 9 } }),
    }),
  },
  {
    name: "GET /api/admin/notifications/channels/{id}/subscriptions",
    allowed: MANAGE_USERS,
    success: 404,
    request: () => ({ path: "/api/admin/notifications/channels/no-such-channel/subscriptions" }),
  },
  {
    name: "PUT /api/admin/notifications/channels/{id}/subscriptions",
    allowed: MANAGE_USERS,
    success: 404,
    request: () => ({
      path: "/api/admin/notifications/channels/no-such-channel/subscriptions",
      init: jsonInit("PUT", { subscriptions: [] }),
    }),
  },
  {
    name: "GET /api/admin/notifications/settings",
    allowed: MANAGE_USERS,
    success: 200,
    request: () => ({ path: "/api/admin/notifications/settings" }),
  },
  {
    name: "PUT /api/admin/notifications/settings",
    allowed: MANAGE_USERS,
    success: 200,
    request: () => ({
      path: "/api/admin/notifications/settings",
      init: jsonInit("PUT", { results_to_last: 2, down_minutes: 5, merge_window_minutes: 2 }),
    }),
  },
  { name: "GET /api/licences/keys", allowed: "public", success: 200, request: () => ({ path: "/api/licences/keys" }) },
  { name: "GET /api/health", allowed: "public", success: 200, request: () => ({ path: "/api/health" }) },
  { name: "GET /api/ready", allowed: "public", success: 200, request: () => ({ path: "/api/ready" }) },
  { name: "GET /api/openapi.json", allowed: "public", success: 200, request: () => ({ path: "/api/openapi.json" }) },
];

function expectedStatus(route: MatrixRoute, who: Who): number {
  if (route.allowed === "public") return route.success;
  if (who === "anonymous") return 401;
  if (route.allowed === "signed-in") return route.success;
  return route.allowed.includes(who) ? route.success : 403;
}

function send(who: Who, path: string, init: RequestInit = {}): Promise<GatewayResponse> {
  if (who !== "anonymous") return clients[who].request(path, init);
  // Anonymous callers pass the CSRF rule, so that what is tested is the missing session.
  const headers = new Headers(init.headers);
  if (init.method && init.method !== "GET") headers.set("X-CSRF", "1");
  return gateway.request(path, { ...init, headers });
}

const cases = ROUTES.flatMap((route) => EVERYONE.map((who) => ({ route, who, name: `${route.name} as ${who}` })));

describe("every route × anonymous and each role", () => {
  beforeEach(async () => {
    await sandbox.clearRequests();
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s", async (_name, { route, who }) => {
    const { path, init } = route.request(who);
    const res = await send(who, path, init);
    const expected = expectedStatus(route, who);
    expect(res.status, res.text).toBe(expected);
    if (expected === 401) expect(res.json.error.code).toBe("unauthenticated");
    if (expected === 403) {
      expect(res.json.error).toMatchObject({
        code: "forbidden",
        message: expect.stringContaining("role"),
        request_id: expect.any(String),
      });
    }
    // A refused request never reaches an upstream. The runs that earlier cases started ("Run now") share one budget
    // of calls, so theirs may still come now, in the background: they list their own projects' reports.
    const ownRuns = (request: LoggedRequest) => /^runs-\w+\.matrix\.example$/.test(String(request.query.project ?? ""));
    if (expected === 401 || expected === 403)
      expect((await sandbox.requests()).filter((request) => !ownRuns(request))).toEqual([]);
  });
});

describe("role fit: support sees what it needs to answer a buyer, not the seller's finances", () => {
  it("GET /api/account has no balance for support, and has it for the roles that may read the seller's finances", async () => {
    const support = await clients.support.request("/api/account");
    expect(support.status).toBe(200);
    expect(support.json.data).toMatchObject({ username: expect.any(String), email: expect.any(String) });
    expect(support.json.data).not.toHaveProperty("balance");
    expect(support.json.data).not.toHaveProperty("currency");
    expect(support.text).not.toMatch(/balance/i);
    for (const role of ["admin", "editor", "viewer"] as const) {
      const res = await clients[role].request("/api/account");
      expect(res.json.data.balance, role).toEqual(expect.any(Number));
    }
  });

  it("the account page shows support no balance", async () => {
    const [support, editor] = await Promise.all([
      clients.support.request("/account"),
      clients.editor.request("/account"),
    ]);
    expect(support.status).toBe(200);
    expect(support.text).toContain("Account details");
    expect(support.text).not.toContain("Balance");
    expect(editor.text).toContain("Balance");
  });

  it("support's purchase answers carry validity, licence, support and item, and no seller money", async () => {
    const check = await clients.support.request(
      "/api/purchases/validate",
      jsonInit("POST", { purchase_code: FIXED_PURCHASE_CODES.expired }),
    );
    expect(check.json.data).toMatchObject({
      valid: true,
      purchase: {
        license_type: expect.any(String),
        item: { id: expect.any(Number) },
        supported_until: expect.any(String),
      },
    });
    // The buyer's purchase price is the buyer's; the seller's balance or earnings are in no answer support reads.
    const answers = [
      check,
      await clients.support.request("/api/purchases/history"),
      await clients.support.request(`/api/purchases/bulk/${fixtures.bulkJob.support}`),
    ];
    for (const answer of answers) expect(answer.text).not.toMatch(/balance|earning/i);
  });
});

describe("pages (proxy.ts)", () => {
  it.each([
    ["/", "/login?next=%2F"],
    ["/reports?page=2&result=bad", "/login?next=%2Freports%3Fpage%3D2%26result%3Dbad"],
  ])("sends %s without a session cookie to the sign-in page, coming back to a local path", async (path, location) => {
    const res = await gateway.request(path);
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe(location);
  });

  it("leaves the sign-in page open", async () => {
    const res = await gateway.request("/login");
    expect(res.status).not.toBe(307);
  });
});

describe("cross-site request forgery", () => {
  const createReport = (
    headers: Record<string, string>,
    body = JSON.stringify({ url: "https://csrf.matrix.example/" }),
  ): RequestInit => ({
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body,
  });

  async function expectCsrfRefusal(res: GatewayResponse) {
    expect(res.status, res.text).toBe(403);
    expect(res.json.error.code).toBe("csrf");
    expect(await sandbox.requests()).toEqual([]);
  }

  beforeEach(async () => {
    await sandbox.clearRequests();
  });

  it("refuses a signed-in change without the X-CSRF header", async () => {
    await expectCsrfRefusal(await clients.editor.request("/api/reports", createReport({ "X-CSRF": "" })));
    await expectCsrfRefusal(
      await clients.editor.request(`/api/reports/${fixtures.reportToUpdate.editor}`, {
        method: "DELETE",
        headers: { "X-CSRF": "0" },
      }),
    );
  });

  it("refuses a foreign Origin, Origin: null and Sec-Fetch-Site: cross-site, even with the header", async () => {
    await expectCsrfRefusal(
      await clients.editor.request("/api/reports", createReport({ Origin: "https://evil.example" })),
    );
    await expectCsrfRefusal(await clients.editor.request("/api/reports", createReport({ Origin: "null" })));
    await expectCsrfRefusal(
      await clients.editor.request("/api/reports", createReport({ "Sec-Fetch-Site": "cross-site" })),
    );
  });

  it("refuses a form-encoded cross-site post (what a forged HTML form sends) before reading it", async () => {
    const res = await clients.editor.request("/api/reports", {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: "https://evil.example",
        "Sec-Fetch-Site": "cross-site",
        "X-CSRF": "",
      },
      body: "url=https%3A%2F%2Fforged.example%2F",
    });
    await expectCsrfRefusal(res);
  });

  it("accepts the portal's own origin", async () => {
    const res = await clients.editor.request(
      "/api/reports",
      createReport(
        { Origin: gateway.url, "Sec-Fetch-Site": "same-origin" },
        JSON.stringify({ url: "https://same-origin.matrix.example/" }),
      ),
    );
    expect(res.status, res.text).toBe(201);
  });

  it("applies to sign-in and sign-out too; a refused sign-out ends nothing", async () => {
    const login = await gateway.request("/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "admin@gatehouse.test", password: "admin password for tests" }),
    });
    expect(login.status).toBe(403);
    expect(login.json.error.code).toBe("csrf");
    expect(login.headers.get("set-cookie")).toBeNull();

    const viewer = await gateway.signIn("viewer");
    const logout = await viewer.request("/api/auth/logout", { method: "POST", headers: { "X-CSRF": "" } });
    expect(logout.json.error.code).toBe("csrf");
    expect((await viewer.request("/api/auth/me")).status).toBe(200);
  });

  it("lets reads through whatever their origin: a GET changes nothing", async () => {
    const res = await clients.viewer.request("/api/reports/1", {
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(res.status).toBe(200);
  });
});

describe("security headers", () => {
  function expectCommonHeaders(res: GatewayResponse) {
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
    // Served over plain http here: no HSTS (the https deployment test checks it is there).
    expect(res.headers.get("strict-transport-security")).toBeNull();
  }

  it("pages get a CSP with a fresh nonce per request, which Next puts on its scripts", async () => {
    const [first, second] = [await gateway.request("/login"), await gateway.request("/login")];
    const nonces = [first, second].map((res) => {
      expectCommonHeaders(res);
      const policy = res.headers.get("content-security-policy") ?? "";
      for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "'strict-dynamic'"])
        expect(policy).toContain(directive);
      return /'nonce-([^']+)'/.exec(policy)?.[1];
    });
    expect(nonces[0]).toBeTruthy();
    expect(nonces[0]).not.toBe(nonces[1]);
    const scripts = [...first.text.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonces[0]}"`);
  });

  it.each([
    ["an API answer", "/api/health", 200],
    ["an API refusal", "/api/reports", 401],
    ["an unknown API route", "/api/nothing-here", 404],
    ["the sign-in redirect", "/reports", 307],
  ])("%s gets the strict static CSP", async (_name, path, status) => {
    const res = await gateway.request(path);
    expect(res.status).toBe(status);
    expectCommonHeaders(res);
    expect(res.headers.get("content-security-policy")).toBe(
      "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
  });

  it("a client's own X-Forwarded-Proto does not make plain http look like https (no trusted proxy here)", async () => {
    const res = await gateway.request("/api/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF": "1", "X-Forwarded-Proto": "https" },
      body: JSON.stringify({ email: "admin@gatehouse.test", password: "admin password for tests" }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("strict-transport-security")).toBeNull();
    expect(res.headers.getSetCookie().join("\n")).toMatch(/^gatehouse_session=(?!.*; Secure)/i);
  });

  it("static files get them too", async () => {
    const page = await gateway.request("/login");
    const script = /<script[^>]+src="(\/_next\/static\/[^"]+)"/.exec(page.text)?.[1];
    expect(script).toBeTruthy();
    const res = await gateway.request(script!);
    expect(res.status).toBe(200);
    expectCommonHeaders(res);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
  });
});

describe("key custody", () => {
  it("no canary key appeared in any response or log line of this file", () => {
    expect(() => gateway.assertNoKeyLeaked()).not.toThrow();
  });
});
