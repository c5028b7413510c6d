// The upstream HTTP layer and the clients, called directly (no Next.js) against the real sandbox over HTTP:
// transport failures, caps, redirects, the exact requests sent, and errors that never carry a key.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";
import { runWithRequestContext, type RequestContext } from "@/lib/log";
import { UpstreamError } from "@/lib/upstream/errors";
import { sendUpstream } from "@/lib/upstream/http";
import { createItemsClient } from "@/lib/upstream/items";
import { createReportsClient } from "@/lib/upstream/reports";

import { CANARY } from "@/tests/support/canary";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({ extraKeys: { reports: [CANARY.reports], items: { [CANARY.items]: "main" } } });
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(async () => {
  await sandbox.clearFaults();
  await sandbox.clearRequests();
});

const reportsClient = (timeoutMs = 2000) =>
  createReportsClient({ baseUrl: sandbox.reportsBaseUrl, apiKey: CANARY.reports }, { timeoutMs });
const itemsClient = (
  keyLocation: Parameters<typeof createItemsClient>[0]["keyLocation"] = { kind: "query-and-form" },
  timeoutMs = 2000,
) => createItemsClient({ baseUrl: sandbox.itemsBaseUrl, apiKey: CANARY.items, keyLocation }, { timeoutMs });

async function upstreamErrorOf(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof UpstreamError) return error;
    throw error;
  }
  throw new Error("expected an UpstreamError");
}

/** An UpstreamError must not carry a key, a query string or a cause, in any of its forms. */
function expectClean(error: UpstreamError): void {
  const everything = [
    error.message,
    error.stack ?? "",
    JSON.stringify(error),
    String(error.upstreamMessage ?? ""),
  ].join("\n");
  expect(everything).not.toContain(CANARY.items);
  expect(everything).not.toContain(CANARY.reports);
  expect(everything).not.toContain("api_key");
  expect(everything).not.toContain("?");
  expect(error.cause).toBeUndefined();
}

describe("transport failures", () => {
  it("times out a hanging upstream, with the area and operation named", async () => {
    await sandbox.injectFault({ path: "/market/api/items/all", kind: "hang" });
    const error = await upstreamErrorOf(itemsClient(undefined, 300).listItems());
    expect(error).toMatchObject({ kind: "timeout", area: "items", operation: "items.all" });
    expect(error.message).toContain("300 ms");
    expectClean(error);
  });

  it("times out a body that trickles in slower than the timeout (the timeout covers the body)", async () => {
    await sandbox.injectFault({ path: "/seo/api/v1/reports", kind: "trickle", bytesPerSecond: 50 });
    const error = await upstreamErrorOf(reportsClient(400).listReports({}));
    expect(error.kind).toBe("timeout");
    expect(error.status).toBe(200);
    expectClean(error);
  });

  it("reports a reset connection and a closed port as unreachable", async () => {
    await sandbox.injectFault({ path: "/market/api/account/details", kind: "reset" });
    const reset = await upstreamErrorOf(itemsClient().getAccount());
    expect(reset.kind).toBe("unreachable");
    expectClean(reset);

    const closed = await freePort();
    const client = createItemsClient(
      { baseUrl: `http://127.0.0.1:${closed}/market`, apiKey: CANARY.items, keyLocation: { kind: "query-and-form" } },
      { timeoutMs: 2000 },
    );
    const refused = await upstreamErrorOf(client.getItem(5));
    expect(refused.kind).toBe("unreachable");
    expect(refused.message).toContain("ECONNREFUSED");
    expectClean(refused);
  });

  it("treats malformed JSON as a bad response", async () => {
    await sandbox.injectFault({ path: "/seo/api/v1/reports/1", kind: "malformed" });
    const error = await upstreamErrorOf(reportsClient().getReport(1));
    expect(error).toMatchObject({ kind: "bad_response", status: 200 });
    expect(error.message).toContain("malformed JSON");
  });

  it("does not follow redirects", async () => {
    await sandbox.injectFault({
      path: "/seo/api/v1/projects",
      kind: "status",
      status: 302,
      body: "",
      headers: { Location: "http://127.0.0.1:9/steal" },
    });
    const error = await upstreamErrorOf(reportsClient().listProjects({}));
    expect(error).toMatchObject({ kind: "bad_response", status: 302 });
    expect((await sandbox.requests()).length).toBe(1);
  });

  it("caps the response size", async () => {
    const error = await upstreamErrorOf(
      sendUpstream({
        area: "reports",
        operation: "reports.list",
        method: "GET",
        url: new URL(`${sandbox.reportsBaseUrl}/api/v1/reports?per_page=100`),
        headers: { Authorization: `Bearer ${CANARY.reports}`, Accept: "application/json" },
        timeoutMs: 2000,
        maxResponseBytes: 1000,
      }),
    );
    expect(error).toMatchObject({ kind: "too_large", status: 200 });
    expectClean(error);
  });

  it("caps a response whose Content-Length announces too much, before reading it", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(6 * 1024 * 1024) });
      res.write("[");
    });
    const port = await listen(server);
    try {
      const client = createReportsClient(
        { baseUrl: `http://127.0.0.1:${port}`, apiKey: CANARY.reports },
        { timeoutMs: 2000 },
      );
      expect((await upstreamErrorOf(client.listReports({}))).kind).toBe("too_large");
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("records every upstream call (status, duration, outcome) in the request's log context", async () => {
    await sandbox.injectFault({ path: "/seo/api/v1/reports/2", kind: "status", status: 503, times: 1 });
    const context: RequestContext = { requestId: "test-request-1", upstreamCalls: [] };
    await runWithRequestContext(context, async () => {
      await reportsClient().getReport(1);
      await upstreamErrorOf(reportsClient().getReport(2));
    });
    expect(context.upstreamCalls).toEqual([
      { area: "reports", operation: "reports.show", status: 200, duration_ms: expect.any(Number), outcome: "ok" },
      { area: "reports", operation: "reports.show", status: 503, duration_ms: expect.any(Number), outcome: "ok" },
    ]);
  });
});

describe("what the upstream receives", () => {
  it("area A: Bearer key and Accept on every request, form fields on POST and PUT, the path prefix kept", async () => {
    const client = reportsClient();
    const created = await client.createReport({
      url: "https://gatehouse.example.org/pricing",
      privacy: 2,
      password: "hunter22",
    });
    await client.updateReport(created.id, { privacy: 1, results: true });
    await client.deleteReport(created.id);
    const [store, update, remove] = await sandbox.requests();
    expect(store).toMatchObject({
      method: "POST",
      path: "/seo/api/v1/reports",
      form: { url: "https://gatehouse.example.org/pricing", privacy: "2", password: "hunter22" },
    });
    expect(store?.headers).toMatchObject({
      authorization: `Bearer ${CANARY.reports}`,
      accept: "application/json",
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(update).toMatchObject({
      method: "PUT",
      path: `/seo/api/v1/reports/${created.id}`,
      form: { privacy: "1", results: "1" },
    });
    expect(remove).toMatchObject({ method: "DELETE", path: `/seo/api/v1/reports/${created.id}`, form: null });
    expect(remove?.headers["content-type"]).toBeUndefined();
  });

  it("area A: list queries carry only the given parameters, and `page`", async () => {
    const page = await reportsClient().listReports({
      result: "bad",
      sort_by: "url",
      sort: "asc",
      per_page: 25,
      page: 2,
    });
    expect(page.meta).toMatchObject({ page: 2, per_page: 25 });
    const [list] = await sandbox.requests();
    expect(list?.query).toEqual({ result: "bad", sort_by: "url", sort: "asc", per_page: "25", page: "2" });
  });

  it("area A: a project name is one encoded path segment", async () => {
    await upstreamErrorOf(reportsClient().deleteProject("no such/project ü"));
    const [request] = await sandbox.requests();
    expect(request?.path).toBe("/seo/api/v1/projects/no%20such%2Fproject%20%C3%BC");
  });

  it("area B: api_key in the query on GET and in the form on POST by default", async () => {
    const client = itemsClient();
    await client.getItem(999_999).catch(() => undefined);
    await client.validatePurchase(FIXED_PURCHASE_CODES.active);
    const [get, post] = await sandbox.requests();
    expect(get).toMatchObject({
      method: "GET",
      path: "/market/api/items/item",
      query: { api_key: CANARY.items, item_id: "999999" },
      form: null,
    });
    expect(post).toMatchObject({
      method: "POST",
      path: "/market/api/purchases/validation",
      query: {},
      form: { api_key: CANARY.items, purchase_code: FIXED_PURCHASE_CODES.active },
    });
  });

  it("area B: ITEMS_API_KEY_LOCATION=query and header:<Name> move the key", async () => {
    // The sandbox takes the key only where the document implies, so these calls fail; the log shows what was sent.
    await itemsClient({ kind: "query" })
      .validatePurchase(FIXED_PURCHASE_CODES.none)
      .catch(() => undefined);
    await itemsClient({ kind: "header", name: "X-Api-Key" })
      .getAccount()
      .catch(() => undefined);
    const [post, get] = await sandbox.requests();
    expect(post).toMatchObject({
      query: { api_key: CANARY.items },
      form: { purchase_code: FIXED_PURCHASE_CODES.none },
    });
    expect(post?.form).not.toHaveProperty("api_key");
    expect(get?.query).toEqual({});
    expect(get?.headers["x-api-key"]).toBe(CANARY.items);
  });
});

describe("upstream answers → error kinds", () => {
  it("area A: 401 → auth, 404 → not_found, 422 → invalid with fields, 429 → rate_limited with Retry-After", async () => {
    const wrongKey = createReportsClient(
      { baseUrl: sandbox.reportsBaseUrl, apiKey: "wrong-key-123456" },
      { timeoutMs: 2000 },
    );
    expect((await upstreamErrorOf(wrongKey.listReports({}))).kind).toBe("auth");
    expect((await upstreamErrorOf(reportsClient().getReport(987_654))).kind).toBe("not_found");

    await sandbox.injectFault({
      path: "/seo/api/v1/reports",
      method: "POST",
      kind: "status",
      status: 422,
      body: { message: "The url has already been taken.", errors: { url: ["The url has already been taken."] } },
      times: 1,
    });
    const invalid = await upstreamErrorOf(reportsClient().createReport({ url: "https://a.example/" }));
    expect(invalid).toMatchObject({ kind: "invalid", fields: { url: "The url has already been taken." } });

    await sandbox.injectFault({
      path: "/seo/api/v1/reports",
      kind: "status",
      status: 429,
      headers: { "Retry-After": "7" },
      times: 1,
    });
    expect(await upstreamErrorOf(reportsClient().listReports({}))).toMatchObject({
      kind: "rate_limited",
      retryAfter: "7",
    });
  });

  it("area A: a 404 on a list path is a wrong base URL, not a missing resource", async () => {
    const wrongBase = createReportsClient(
      { baseUrl: `${sandbox.url}/nope`, apiKey: CANARY.reports },
      { timeoutMs: 2000 },
    );
    expect((await upstreamErrorOf(wrongBase.listReports({}))).kind).toBe("http_status");
  });

  it("area B: documented messages become outcomes; a bad key is auth whatever the status", async () => {
    const empty = createItemsClient(
      { baseUrl: sandbox.itemsBaseUrl, apiKey: "sandbox-items-key-empty", keyLocation: { kind: "query-and-form" } },
      { timeoutMs: 2000 },
    );
    expect(await empty.listItems()).toEqual([]);
    expect((await upstreamErrorOf(itemsClient().getItem(999_999))).kind).toBe("not_found");
    expect(await itemsClient().validatePurchase("not-a-code")).toEqual({
      valid: false,
      message: "Invalid purchase code",
    });

    const wrongKey = createItemsClient(
      { baseUrl: sandbox.itemsBaseUrl, apiKey: "wrong-key-123456", keyLocation: { kind: "query-and-form" } },
      { timeoutMs: 2000 },
    );
    const auth = await upstreamErrorOf(wrongKey.getAccount());
    expect(auth.kind).toBe("auth");
    expectClean(auth);

    await sandbox.injectFault({
      path: "/market/api/account/details",
      kind: "status",
      status: 200,
      body: { status: "error", msg: "Invalid request" },
      times: 1,
    });
    expect((await upstreamErrorOf(itemsClient().getAccount())).kind).toBe("auth");
  });

  it("area B: an unexpected error message is an upstream error that quotes it", async () => {
    await sandbox.injectFault({
      path: "/market/api/items/all",
      kind: "status",
      status: 500,
      body: { status: "error", msg: "Database on fire" },
      times: 1,
    });
    expect(await upstreamErrorOf(itemsClient().listItems())).toMatchObject({
      kind: "http_status",
      upstreamMessage: "Database on fire",
    });
  });
});

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

async function freePort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}
