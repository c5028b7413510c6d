// Retries, counted through the sandbox's request log: only idempotent GETs, only after a connection error or a
// 502/503/504, at most 2, never once an answer has begun, never for POST/PUT/DELETE, within the one timeout
// budget and the retry budget.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

import { describe, expect, it } from "vitest";

import { runWithRequestContext, type RequestContext } from "@/lib/log";
import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";
import { createReportsClient } from "@/lib/upstream/reports";
import { backoffDelay, DEFAULT_RETRY } from "@/lib/upstream/policy/retry";
import { Resilience } from "@/lib/upstream/policy";

import { CANARY } from "@/tests/support/canary";

import {
  harness,
  ManualClock,
  reportPath,
  REPORTS,
  settings,
  upstreamCalls,
  upstreamErrorOf,
  VALIDATION,
} from "@/tests/support/resilience";
import { setUpCanarySandbox } from "@/tests/support/set-up-sandbox";

const sandbox = setUpCanarySandbox();

// Cache off, so that every call is a real one; the breaker off where a test fails more than 5 times on purpose.
const noCache = { ttlMs: { reports: 0, items: 0 } };

describe("what is retried", () => {
  it.each([502, 503, 504])("a GET answered %i once is sent again and succeeds", async (status) => {
    await sandbox.injectFault({ method: "GET", path: reportPath(3), kind: "status", status, times: 1 });
    const { reports } = harness(sandbox, { settings: settings(noCache) });
    expect((await reports.getReport(3)).id).toBe(3);
    expect(await upstreamCalls(sandbox, "GET", reportPath(3))).toHaveLength(2);
  });

  it("at most 2 retries: after three 503s the caller gets the upstream's error, and the upstream saw 3 requests", async () => {
    await sandbox.injectFault({ method: "GET", path: REPORTS, kind: "status", status: 503, times: 3 });
    const { reports } = harness(sandbox, { settings: settings(noCache) });
    expect(await upstreamErrorOf(reports.listReports({}))).toMatchObject({ kind: "http_status", status: 503 });
    expect(await upstreamCalls(sandbox, "GET", REPORTS)).toHaveLength(3);
  });

  it("two 503s, then the third attempt succeeds", async () => {
    await sandbox.injectFault({ method: "GET", path: REPORTS, kind: "status", status: 503, times: 2 });
    const { reports } = harness(sandbox, { settings: settings(noCache) });
    expect((await reports.listReports({})).data).toHaveLength(10);
    expect(await upstreamCalls(sandbox, "GET", REPORTS)).toHaveLength(3);
  });

  it("a connection reset before any answer is retried", async () => {
    await sandbox.injectFault({ method: "GET", path: "/market/api/items/all", kind: "reset", times: 1 });
    const { items } = harness(sandbox, { settings: settings(noCache) });
    expect((await items.listItems()).length).toBeGreaterThan(0);
    expect(await upstreamCalls(sandbox, "GET", "/market/api/items/all")).toHaveLength(2);
  });

  it("a refused connection is retried twice (each attempt is in the request's log context)", async () => {
    const closedPort = await freePort();
    const resilience = new Resilience(settings({ ...noCache, breaker: { failureThreshold: 0 } }));
    const client = createReportsClient(
      { baseUrl: `http://127.0.0.1:${closedPort}/seo`, apiKey: CANARY.reports },
      { timeoutMs: 3000, policy: resilience.for("reports") },
    );
    const context: RequestContext = { requestId: "retry-refused", upstreamCalls: [] };
    const error = await runWithRequestContext(context, () => upstreamErrorOf(client.getReport(1)));
    expect(error.kind).toBe("unreachable");
    expect(context.upstreamCalls.map((c) => c.outcome)).toEqual(["unreachable", "unreachable", "unreachable"]);
  });
});

describe("what is never retried", () => {
  it.each([
    ["500", { kind: "status", status: 500 }],
    ["429", { kind: "status", status: 429, headers: { "Retry-After": "5" } }],
    ["404", { kind: "status", status: 404 }],
    ["401", { kind: "status", status: 401 }],
    ["malformed JSON", { kind: "malformed" }],
  ] as const)("a GET answered %s: one request", async (_name, fault) => {
    await sandbox.injectFault({ method: "GET", path: reportPath(4), times: 1, ...fault });
    const { reports } = harness(sandbox, { settings: settings(noCache) });
    await upstreamErrorOf(reports.getReport(4));
    expect(await upstreamCalls(sandbox, "GET", reportPath(4))).toHaveLength(1);
  });

  it("a GET that timed out: one request (the budget is spent)", async () => {
    await sandbox.injectFault({ method: "GET", path: reportPath(4), kind: "hang", times: 1 });
    const { reports } = harness(sandbox, { settings: settings(noCache), timeoutMs: 400 });
    expect((await upstreamErrorOf(reports.getReport(4))).kind).toBe("timeout");
    expect(await upstreamCalls(sandbox, "GET", reportPath(4))).toHaveLength(1);
  });

  it("a GET whose answer broke off after it began: one request", async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests += 1;
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"data":[');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const resilience = new Resilience(settings(noCache));
      const client = createReportsClient(
        { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/seo`, apiKey: CANARY.reports },
        { timeoutMs: 3000, policy: resilience.for("reports") },
      );
      const error = await upstreamErrorOf(client.listReports({}));
      expect(error).toMatchObject({ kind: "unreachable", status: 200 });
      expect(requests).toBe(1);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("POST, PUT and DELETE are sent once, whatever the failure", async () => {
    const { reports, items } = harness(sandbox, { settings: settings(noCache) });
    await sandbox.injectFault({ method: "POST", path: REPORTS, kind: "status", status: 503, times: 1 });
    await sandbox.injectFault({ method: "PUT", path: reportPath(5), kind: "reset", times: 1 });
    await sandbox.injectFault({ method: "DELETE", path: reportPath(6), kind: "status", status: 502, times: 1 });
    await sandbox.injectFault({
      method: "DELETE",
      path: "/seo/api/v1/projects/acme-tools.io",
      kind: "reset",
      times: 1,
    });
    await sandbox.injectFault({ method: "POST", path: VALIDATION, kind: "status", status: 503, times: 1 });

    await upstreamErrorOf(reports.createReport({ url: "https://gatehouse.example.org/once" }));
    await upstreamErrorOf(reports.updateReport(5, { privacy: 1 }));
    await upstreamErrorOf(reports.deleteReport(6));
    await upstreamErrorOf(reports.deleteProject("acme-tools.io"));
    await upstreamErrorOf(items.validatePurchase(FIXED_PURCHASE_CODES.active));

    const sent = (await upstreamCalls(sandbox)).map((r) => `${r.method} ${r.path}`);
    expect(sent).toEqual([
      `POST ${REPORTS}`,
      `PUT ${reportPath(5)}`,
      `DELETE ${reportPath(6)}`,
      "DELETE /seo/api/v1/projects/acme-tools.io",
      `POST ${VALIDATION}`,
    ]);
  });
});

describe("limits on retrying", () => {
  it("no retry starts when what is left of the timeout budget cannot hold it", async () => {
    // The first answer (a 503) comes after 900 of the 1000 ms: a retry would outlive the budget, so none is sent.
    await sandbox.injectFault({ method: "GET", path: reportPath(7), kind: "status", status: 503, latencyMs: 900 });
    const { reports } = harness(sandbox, { settings: settings(noCache), timeoutMs: 1000 });
    await upstreamErrorOf(reports.getReport(7));
    expect(await upstreamCalls(sandbox, "GET", reportPath(7))).toHaveLength(1);
  });

  it("retries share the caller's one timeout: a slow reset, then a hang, ends as a timeout of the whole budget", async () => {
    // The reset comes after half the budget; the retry then gets only what is left, not a fresh 1000 ms.
    await sandbox.injectFault({ method: "GET", path: reportPath(8), kind: "reset", latencyMs: 500, times: 1 });
    await sandbox.injectFault({ method: "GET", path: reportPath(8), kind: "hang", times: 1 });
    const { reports } = harness(sandbox, { settings: settings(noCache), clock: new ManualClock(), timeoutMs: 1000 });
    const started = performance.now();
    const error = await upstreamErrorOf(reports.getReport(8));
    const elapsed = performance.now() - started;
    expect(error.kind).toBe("timeout");
    expect(error.message).toContain("within 1000 ms");
    expect(await upstreamCalls(sandbox, "GET", reportPath(8))).toHaveLength(2);
    // Not a speed goal: with a fresh timeout per attempt this would take at least 1560 ms.
    expect(elapsed).toBeLessThan(1450);
  });

  it("the retry budget: in an outage, retries fall to 20% of requests once the reserve is spent", async () => {
    await sandbox.injectFault({ method: "GET", path: reportPath(9), kind: "status", status: 503 });
    const resilience = new Resilience(
      settings({ ...noCache, breaker: { failureThreshold: 0 }, budget: { ratio: 0.2, reserve: 2 } }),
      {
        now: Date.now,
        random: () => 0,
      },
    );
    const client = createReportsClient(
      { baseUrl: sandbox.reportsBaseUrl, apiKey: CANARY.reports },
      { timeoutMs: 3000, policy: resilience.for("reports") },
    );
    for (let i = 0; i < 20; i++) await upstreamErrorOf(client.getReport(9));
    // The reserve pays both retries of the first request; after that every fifth request earns one retry.
    expect(await upstreamCalls(sandbox, "GET", reportPath(9))).toHaveLength(20 + 2 + 3);
  });
});

describe("backoff", () => {
  it("full jitter between 25 and 250 ms, the ceiling growing with each retry", () => {
    expect(backoffDelay(1, DEFAULT_RETRY, () => 0)).toBe(25);
    expect(backoffDelay(1, DEFAULT_RETRY, () => 1)).toBe(100);
    expect(backoffDelay(2, DEFAULT_RETRY, () => 0)).toBe(25);
    expect(backoffDelay(2, DEFAULT_RETRY, () => 1)).toBe(250);
    expect(backoffDelay(6, DEFAULT_RETRY, () => 1)).toBe(250);
    for (let i = 0; i < 200; i++) {
      const delay = backoffDelay(1 + (i % 2), DEFAULT_RETRY);
      expect(delay).toBeGreaterThanOrEqual(25);
      expect(delay).toBeLessThanOrEqual(250);
    }
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
