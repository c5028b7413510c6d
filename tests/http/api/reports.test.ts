// Area A routes of the portal API over real HTTP (next start ↔ sandbox): what they answer, every validation
// error (a 400 naming the field, with no upstream call), not-found answers, and the operational routes.
import { beforeEach, describe, expect, it } from "vitest";

import { fieldLabel } from "@/lib/contract/field-messages";
import { ReportSchema } from "@/lib/contract/reports";

import { setUpGateway } from "@/tests/support/set-up-gateway";

/** Signed in as the admin, who may use every route: these tests are about the gateway, not about roles. */
const { sandbox, gateway, client: api } = setUpGateway({ signIn: "admin" });
beforeEach(async () => {
  await sandbox.clearRequests();
});

const json = (body: unknown, method = "POST"): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

/** A 400 naming exactly `field`, and the upstream never asked. */
async function expectFieldError(path: string, field: string, init?: RequestInit) {
  const res = await api.request(path, init);
  expect(res.status, res.text).toBe(400);
  expect(res.json.error.code).toBe("invalid_input");
  expect(Object.keys(res.json.error.fields)).toEqual([field]);
  // Named as people read it: "Per page: Must be one of…" (lib/contract/field-messages.ts).
  expect(res.json.error.message).toContain(`${fieldLabel(field)}: `);
  expect(await sandbox.requests()).toEqual([]);
  return res;
}

describe("GET /api/reports", () => {
  it("answers the first page with the contract's meta, and reports without passwords", async () => {
    const res = await api.request("/api/reports");
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(10);
    expect(res.json.meta).toEqual({
      page: 1,
      per_page: 10,
      total: expect.any(Number),
      last_page: Math.ceil(res.json.meta.total / 10),
    });
    expect(res.json.meta.total).toBeGreaterThanOrEqual(150);
    for (const report of res.json.data) {
      expect(Object.keys(report).sort()).toEqual(["generated_at", "id", "privacy", "project", "result", "url"]);
      expect(ReportSchema.parse(report)).toEqual(report);
    }
  });

  it("filters, sorts and pages through the upstream", async () => {
    const bad = await api.request("/api/reports?result=bad&per_page=100");
    expect(bad.json.data.length).toBeGreaterThan(0);
    expect(bad.json.data.every((r: { result: string }) => r.result === "bad")).toBe(true);

    const shop = await api.request(`/api/reports?project=${encodeURIComponent("my shop")}`);
    expect(shop.json.data.length).toBeGreaterThan(0);
    expect(shop.json.data.every((r: { project: string }) => r.project === "my shop")).toBe(true);

    const sorted = await api.request("/api/reports?sort_by=url&sort=asc&per_page=25&page=2&search=https&search_by=url");
    expect(sorted.json.meta).toMatchObject({ page: 2, per_page: 25 });
    const urls = sorted.json.data.map((r: { url: string }) => r.url);
    expect(urls).toEqual([...urls].sort());
  });

  it("treats an empty parameter as absent (a form's blank search box)", async () => {
    const res = await api.request("/api/reports?search=&result=");
    expect(res.status).toBe(200);
    expect((await sandbox.requests())[0]?.query).toEqual({});
  });

  it.each([
    ["per_page=7", "per_page"],
    ["per_page=ten", "per_page"],
    ["sort_by=foo", "sort_by"],
    ["result=great", "result"],
    ["search_by=project", "search_by"],
    ["sort=up", "sort"],
    ["page=0", "page"],
    ["page=abc", "page"],
    ["page=1.5", "page"],
    ["perpage=50", "perpage"],
    ["result=good&result=bad", "result"],
    [`search=${"x".repeat(256)}`, "search"],
    [`project=${encodeURIComponent("a\u0001b")}`, "project"],
  ])("?%s → 400 naming %s", async (query, field) => {
    await expectFieldError(`/api/reports?${query}`, field);
  });

  it("explains the allowed values", async () => {
    const res = await expectFieldError("/api/reports?per_page=7", "per_page");
    expect(res.json.error.fields.per_page).toBe("per_page must be one of: 10, 25, 50, 100");
  });
});

describe("GET /api/reports/{id}", () => {
  it("answers one report", async () => {
    const res = await api.request("/api/reports/5");
    expect(res.status).toBe(200);
    expect(ReportSchema.parse(res.json.data).id).toBe(5);
  });

  it.each(["abc", "0", "-1", "1.5", "1e3", "9999999999999999", "%20"])("id %s → 400 naming id", async (id) => {
    await expectFieldError(`/api/reports/${id}`, "id");
  });

  it("refuses query parameters it does not take", async () => {
    await expectFieldError("/api/reports/5?include=password", "include");
  });

  it("answers 404 with a message for an id the upstream does not know", async () => {
    const res = await api.request("/api/reports/987654");
    expect(res.status).toBe(404);
    expect(res.json.error).toMatchObject({ code: "not_found", message: "There is no report with id 987654." });
  });
});

describe("POST /api/reports", () => {
  it("creates a report (201), which can then be read", async () => {
    const res = await api.request("/api/reports", json({ url: "https://newsite.example.net/about", privacy: 1 }));
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({
      url: "https://newsite.example.net/about",
      privacy: 1,
      project: "newsite.example.net",
    });
    const again = await api.request(`/api/reports/${res.json.data.id}`);
    expect(again.json.data).toEqual(res.json.data);
  });

  it("creates a password-protected report without ever returning the password", async () => {
    const res = await api.request(
      "/api/reports",
      json({ url: "https://private.example.net/", privacy: 2, password: "letmein-42" }),
    );
    expect(res.status).toBe(201);
    expect(res.json.data.privacy).toBe(2);
    expect(res.text).not.toContain("letmein-42");
  });

  it.each([
    [{}, "url"],
    [{ url: 42 }, "url"],
    [{ url: "ftp://files.example.com/" }, "url"],
    [{ url: "not a url" }, "url"],
    [{ url: `https://example.com/${"a".repeat(2040)}` }, "url"],
    [{ url: "https://a.example/", privacy: 3 }, "privacy"],
    [{ url: "https://a.example/", privacy: "1" }, "privacy"],
    [{ url: "https://a.example/", privacy: 2 }, "password"],
    [{ url: "https://a.example/", password: "secret" }, "password"],
    [{ url: "https://a.example/", privacy: 2, password: "" }, "password"],
    [{ url: "https://a.example/", privacy: 2, password: "x" }, "password"],
    [{ url: "https://a.example/", owner: "me" }, "owner"],
  ])("%j → 400 naming %s", async (body, field) => {
    await expectFieldError("/api/reports", field, json(body));
  });

  it("refuses a report page password shorter than 8 characters, saying so, before the upstream is asked", async () => {
    const res = await expectFieldError(
      "/api/reports",
      "password",
      json({ url: "https://a.example/", privacy: 2, password: "x" }),
    );
    expect(res.json.error.fields.password).toBe("password must be at least 8 characters");
  });

  it("answers malformed JSON, a non-object, an empty body, the wrong content type and a huge body with 4xx", async () => {
    const cases: [RequestInit, number, string][] = [
      [json('{"url": '), 400, "invalid_json"],
      [json("[1,2]"), 400, "invalid_json"],
      [json(""), 400, "invalid_json"],
      [
        { method: "POST", headers: { "Content-Type": "text/plain" }, body: '{"url":"https://a.example/"}' },
        415,
        "unsupported_media_type",
      ],
      [
        {
          method: "POST",
          body: "url=https://a.example/",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
        },
        415,
        "unsupported_media_type",
      ],
      [json({ url: "https://a.example/", pad: "x".repeat(70 * 1024) }), 413, "payload_too_large"],
    ];
    for (const [init, status, code] of cases) {
      const res = await api.request("/api/reports", init);
      expect(res.status).toBe(status);
      expect(res.json.error.code).toBe(code);
    }
    expect(await sandbox.requests()).toEqual([]);
  });
});

describe("PATCH /api/reports/{id}", () => {
  it("changes privacy and password, and regenerates results", async () => {
    const res = await api.request("/api/reports/10", json({ privacy: 2, password: "p4ssword" }, "PATCH"));
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ id: 10, privacy: 2 });
    const regenerated = await api.request("/api/reports/10", json({ results: true }, "PATCH"));
    expect(regenerated.status).toBe(200);
    expect(ReportSchema.parse(regenerated.json.data).id).toBe(10);
    const [, second] = await sandbox.requests();
    expect(second?.form).toEqual({ results: "1" });
  });

  it("refuses an update with nothing in it, without naming a field", async () => {
    const res = await api.request("/api/reports/10", json({}, "PATCH"));
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      code: "invalid_input",
      message: "Nothing to update: send privacy, password or results.",
    });
    expect(res.json.error.fields).toBeUndefined();
  });

  it.each([
    [{ results: false }, "results"],
    [{ results: 1 }, "results"],
    [{ privacy: 5 }, "privacy"],
    [{ privacy: 0, password: "x" }, "password"],
    [{ privacy: 1, url: "https://a.example/" }, "url"],
  ])("%j → 400 naming %s", async (body, field) => {
    await expectFieldError("/api/reports/10", field, json(body, "PATCH"));
  });

  it("answers 400 for a bad id and 404 for an unknown one", async () => {
    await expectFieldError("/api/reports/x", "id", json({ privacy: 0 }, "PATCH"));
    expect((await api.request("/api/reports/987654", json({ privacy: 0 }, "PATCH"))).status).toBe(404);
  });
});

describe("DELETE /api/reports/{id}", () => {
  it("deletes (204), after which the report is not found", async () => {
    const res = await api.request("/api/reports/20", { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await api.request("/api/reports/20")).status).toBe(404);
    expect((await api.request("/api/reports/20", { method: "DELETE" })).status).toBe(404);
  });

  it("answers 400 for a bad id", async () => {
    await expectFieldError("/api/reports/twenty", "id", { method: "DELETE" });
  });
});

describe("GET /api/projects", () => {
  it("answers projects with their creation time", async () => {
    const res = await api.request("/api/projects?sort_by=project&sort=asc&per_page=100");
    expect(res.status).toBe(200);
    expect(res.json.meta).toMatchObject({ page: 1, per_page: 100 });
    const names = res.json.data.map((p: { project: string }) => p.project);
    expect(names).toContain("my shop");
    expect(names).toContain("café-münchen.de");
    for (const project of res.json.data) expect(Object.keys(project).sort()).toEqual(["created_at", "project"]);
  });

  it("searches by name", async () => {
    const res = await api.request("/api/projects?search=shop&search_by=project");
    expect(res.json.data.every((p: { project: string }) => p.project.includes("shop"))).toBe(true);
  });

  it.each([
    ["search_by=url", "search_by"],
    ["sort_by=id", "sort_by"],
    ["sort=sideways", "sort"],
    ["per_page=5", "per_page"],
    ["page=-2", "page"],
    ["result=good", "result"],
  ])("?%s → 400 naming %s", async (query, field) => {
    await expectFieldError(`/api/projects?${query}`, field);
  });
});

describe("DELETE /api/projects/{project}", () => {
  it("deletes projects whose names hold a space or non-ASCII letters", async () => {
    for (const name of ["my shop", "café-münchen.de"]) {
      const res = await api.request(`/api/projects/${encodeURIComponent(name)}`, { method: "DELETE" });
      expect(res.status, name).toBe(204);
    }
    const paths = (await sandbox.requests()).map((r) => r.path);
    expect(paths).toEqual(["/seo/api/v1/projects/my%20shop", "/seo/api/v1/projects/caf%C3%A9-m%C3%BCnchen.de"]);
    const left = await api.request("/api/projects?per_page=100");
    expect(left.json.data.map((p: { project: string }) => p.project)).not.toContain("my shop");
  });

  it("answers 404 naming the project when the upstream does not know it", async () => {
    const res = await api.request("/api/projects/nothing-here", { method: "DELETE" });
    expect(res.status).toBe(404);
    expect(res.json.error.message).toBe("There is no project named nothing-here.");
  });

  it("refuses a name longer than 255 characters", async () => {
    await expectFieldError(`/api/projects/${"p".repeat(256)}`, "project", { method: "DELETE" });
  });
});

describe("methods, unknown routes, health, readiness", () => {
  it("answers an unsupported method with a JSON 405 and Allow", async () => {
    const res = await api.request("/api/reports/1", { method: "PUT" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, PATCH, DELETE, HEAD, OPTIONS");
    expect(res.json.error.code).toBe("method_not_allowed");
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("answers OPTIONS with the real methods", async () => {
    const res = await api.request("/api/reports", { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe("GET, POST, HEAD, OPTIONS");
  });

  it("answers an unknown /api path with a JSON 404", async () => {
    const res = await api.request("/api/reportz");
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("not_found");
  });

  it("health answers without calling any upstream", async () => {
    const res = await api.request("/api/health");
    expect(res.json).toEqual({ status: "ok" });
    expect(await sandbox.requests()).toEqual([]);
  });

  it("ready checks both areas", async () => {
    const res = await api.request("/api/ready");
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      status: "ready",
      mode: "configured",
      areas: {
        reports: { configured: true, reachable: true, key_accepted: true },
        items: { configured: true, reachable: true, key_accepted: true },
      },
    });
  });
});

describe("GET /api/openapi.json", () => {
  it("describes every route, generated from the validating schemas", async () => {
    const res = await api.request("/api/openapi.json");
    expect(res.status).toBe(200);
    const doc = res.json;
    expect(doc.openapi).toBe("3.1.0");
    const operations = Object.entries(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap(
      ([path, methods]) =>
        Object.entries(methods).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(operations.sort()).toEqual(
      [
        "GET /api/reports listReports",
        "POST /api/reports createReport",
        "GET /api/reports/{id} showReport",
        "PATCH /api/auth/me updateMe",
        "PATCH /api/reports/{id} updateReport",
        "DELETE /api/reports/{id} deleteReport",
        "GET /api/projects listProjects",
        "DELETE /api/projects/{project} deleteProject",
        "GET /api/reports/{id}/history reportHistory",
        "POST /api/reports/{id}/password revealReportPassword",
        "GET /api/trends resultTrend",
        "GET /api/trends/projects projectMixes",
        "GET /api/projects/{project}/compare compareProject",
        "GET /api/projects/{project}/schedule projectSchedule",
        "POST /api/projects/{project}/schedule setProjectSchedule",
        "DELETE /api/projects/{project}/schedule deleteProjectSchedule",
        "POST /api/projects/{project}/schedule/runs runProjectSchedule",
        "GET /api/projects/{project}/alert-rule projectAlertRule",
        "POST /api/projects/{project}/alert-rule setProjectAlertRule",
        "GET /api/alerts listAlerts",
        "GET /api/alerts/count alertCount",
        "POST /api/admin/webhooks/{id}/test testWebhook",
        "POST /api/alerts/acknowledge acknowledgeAlerts",
        "GET /api/account showAccount",
        "GET /api/items listItems",
        "GET /api/items/{id} showItem",
        "POST /api/purchases/validate validatePurchase",
        "GET /api/purchases/history listPurchaseHistory",
        "GET /api/purchases/history.csv exportPurchaseHistory",
        "POST /api/purchases/history/search searchPurchaseHistory",
        "POST /api/purchases/history/search.csv exportPurchaseHistorySearch",
        "GET /api/purchases/bulk listBulkJobs",
        "POST /api/purchases/bulk createBulkJob",
        "POST /api/purchases/bulk/{id}/recheck recheckBulkJob",
        "GET /api/purchases/bulk/{id} getBulkJob",
        "DELETE /api/purchases/bulk/{id} cancelBulkJob",
        "GET /api/purchases/bulk/{id}.csv exportBulkJob",
        "GET /api/purchases/bulk/{id}/results listBulkJobResults",
        "GET /api/health health",
        "GET /api/ready ready",
        "GET /api/openapi.json openapi",
        "POST /api/alerts/unacknowledge unacknowledgeAlerts",
        "POST /api/auth/login login",
        "POST /api/auth/logout logout",
        "GET /api/auth/oidc/start ssoStart",
        "GET /api/auth/oidc/callback ssoCallback",
        "GET /api/auth/me me",
        "GET /api/admin/users listUsers",
        "POST /api/admin/users createUser",
        "PATCH /api/admin/users/{id} updateUser",
        "POST /api/admin/users/{id}/unlock unlockUser",
        "GET /api/admin/audit listAudit",
        "GET /api/tokens listTokens",
        "POST /api/tokens createToken",
        "PATCH /api/tokens/{id} updateTokenLimits",
        "GET /api/tokens/usage tokenUsage",
        "DELETE /api/tokens/{id} revokeToken",
        "GET /api/admin/tokens listEveryToken",
        "GET /api/notifications/subscriptions mySubscriptions",
        "PUT /api/notifications/subscriptions setMySubscriptions",
        "GET /api/notifications/preferences myNotificationPreferences",
        "PUT /api/notifications/preferences setMyNotificationPreferences",
        "GET /api/admin/notifications/channels/{id}/subscriptions channelSubscriptions",
        "PUT /api/admin/notifications/channels/{id}/subscriptions setChannelSubscriptions",
        "GET /api/admin/notifications/settings notificationSettings",
        "PUT /api/admin/notifications/settings setNotificationSettings",
        "GET /api/admin/webhooks listWebhooks",
        "POST /api/admin/webhooks createWebhook",
        "PATCH /api/admin/webhooks/{id} updateWebhook",
        "DELETE /api/admin/webhooks/{id} deleteWebhook",
        "GET /api/admin/webhooks/{id}/deliveries listWebhookDeliveries",
        "POST /api/admin/webhooks/{id}/deliveries/{delivery}/resend redeliverWebhook",
        "GET /api/admin/upstream-keys listUpstreamKeys",
        "POST /api/admin/upstream-keys/{area}/test testUpstreamKey",
        "POST /api/admin/upstream-keys/{area} setUpstreamKey",
        "POST /api/admin/upstream-keys/{area}/{id}/restore restoreUpstreamKey",
        "DELETE /api/admin/upstream-keys/{area}/{id} removeUpstreamKey",
        "POST /api/helpdesk/lookup helpdeskLookup",
        "POST /api/helpdesk/helpscout helpScoutCard",
        "GET /api/admin/helpdesk getHelpdeskSettings",
        "GET /api/admin/licences getLicencesAdmin",
        "GET /api/licences/keys licenceKeys",
        "POST /api/licences/activate activateLicence",
        "POST /api/licences/activations/search searchLicenceActivations",
        "POST /api/licences/activations/{id}/reset resetLicenceActivation",
        "POST /api/licences/deactivate deactivateLicence",
        "POST /api/licences/reset resetLicenceActivations",
        "POST /api/licences/validate validateLicence",
        "PUT /api/admin/licences/items/{id} saveLicencePolicy",
        "POST /api/admin/helpdesk/helpscout-secret makeHelpScoutSecret",
        "DELETE /api/admin/helpdesk/helpscout-secret removeHelpScoutSecret",
        "GET /api/purchases/support-expiring listSupportExpiring",
        "GET /api/admin/purchase-lifecycle getPurchaseLifecycle",
        "PUT /api/admin/purchase-lifecycle savePurchaseLifecycle",
        "POST /api/admin/purchase-lifecycle/sweep runPurchaseSweep",
        "PUT /api/admin/purchase-lifecycle/items/{id} setRenewalLink",
        "GET /api/admin/notifications/channels listNotificationChannels",
        "POST /api/admin/notifications/channels createNotificationChannel",
        "PATCH /api/admin/notifications/channels/{id} updateNotificationChannel",
        "DELETE /api/admin/notifications/channels/{id} deleteNotificationChannel",
        "POST /api/admin/notifications/channels/{id}/test testNotificationChannel",
        "GET /api/admin/notifications/channels/{id}/deliveries listNotificationDeliveries",
        "GET /api/admin/notifications/smtp getNotificationSmtp",
        "PUT /api/admin/notifications/smtp setNotificationSmtp",
        "DELETE /api/admin/notifications/smtp removeNotificationSmtp",
        "POST /api/admin/notifications/smtp/test testNotificationSmtp",
        "POST /api/notifications/unsubscribe unsubscribeNotifications",
        "POST /api/auth/second-factor secondFactor",
        "GET /api/auth/factors showFactors",
        "POST /api/auth/totp startTotpEnrolment",
        "POST /api/auth/totp/confirm confirmTotpEnrolment",
        "DELETE /api/auth/totp removeTotp",
        "POST /api/auth/recovery-codes regenerateRecoveryCodes",
        "GET /api/admin/sign-in-policy getSignInPolicy",
        "PUT /api/admin/sign-in-policy saveSignInPolicy",
        "GET /api/auth/passkeys listPasskeys",
        "POST /api/auth/passkeys/options passkeyRegistrationOptions",
        "POST /api/auth/passkeys registerPasskey",
        "PATCH /api/auth/passkeys/{id} renamePasskey",
        "DELETE /api/auth/passkeys/{id} removePasskey",
        "POST /api/auth/passkey/options passkeyOptions",
        "POST /api/auth/passkey passkeySignIn",
        "POST /api/auth/step-up stepUp",
        "GET /api/admin/audit/export exportAudit",
      ].sort(),
    );
    const perPage = doc.paths["/api/reports"].get.parameters.find((p: { name: string }) => p.name === "per_page");
    expect(perPage).toMatchObject({ in: "query", required: false, schema: { enum: ["10", "25", "50", "100"] } });
    expect(doc.paths["/api/reports/{id}"].get.parameters).toContainEqual(
      expect.objectContaining({ name: "id", in: "path", required: true }),
    );
    expect(doc.paths["/api/reports"].post.requestBody.content["application/json"].schema.required).toEqual(["url"]);
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(["Report", "Project", "Account", "Item", "Purchase", "Error"]),
    );
    expect(doc.components.schemas.Report.properties.privacy).toBeDefined();
    expect(doc.components.schemas.Report.properties.password).toBeUndefined();
    // Every $ref points at a component that exists.
    const refs = [...res.text.matchAll(/"\$ref":"#\/components\/(schemas|headers)\/([^"]+)"/g)];
    expect(refs.length).toBeGreaterThan(10);
    for (const [, kind, name] of refs) expect(doc.components[kind!][name!], `${kind}/${name}`).toBeDefined();
    expect(res.text).not.toContain("#/$defs/");
  });
});

describe("key custody", () => {
  it("no canary key appeared in any response body, response header or log line of this file", () => {
    expect(() => gateway.assertNoKeyLeaked()).not.toThrow();
  });
});
