// Each upstream failure kind with the policies on (retries, breaker, cache), through the clients against the
// sandbox: what the caller gets, and that a hung or trickling upstream never holds a call past its timeout nor
// keeps a socket open after it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, describe, expect, it } from "vitest";

import { CircuitOpenError } from "@/lib/upstream/errors";
import { Resilience } from "@/lib/upstream/policy";
import { createReportsClient } from "@/lib/upstream/reports";

import { CANARY } from "@/tests/support/canary";

import {
  harness,
  ITEMS,
  reportPath,
  REPORTS,
  settings,
  upstreamCalls,
  upstreamErrorOf,
} from "@/tests/support/resilience";
import { setUpCanarySandbox } from "@/tests/support/set-up-sandbox";

const sandbox = setUpCanarySandbox();

describe("what the caller gets for each failure, with every policy on", () => {
  it("a hung upstream: a timeout after the budget, one request", async () => {
    await sandbox.injectFault({ method: "GET", path: REPORTS, kind: "hang" });
    const { reports } = harness(sandbox, { timeoutMs: 400 });
    expect(await upstreamErrorOf(reports.listReports({}))).toMatchObject({
      kind: "timeout",
      area: "reports",
      operation: "reports.list",
    });
    expect(await upstreamCalls(sandbox, "GET", REPORTS)).toHaveLength(1);
  });

  it("a trickling upstream: a timeout too (the budget covers the body)", async () => {
    await sandbox.injectFault({ method: "GET", path: ITEMS, kind: "trickle", bytesPerSecond: 100 });
    const { items } = harness(sandbox, { timeoutMs: 400 });
    expect(await upstreamErrorOf(items.listItems())).toMatchObject({ kind: "timeout", status: 200 });
  });

  it("a reset that persists: unreachable after the retries", async () => {
    await sandbox.injectFault({ method: "GET", path: reportPath(2), kind: "reset" });
    const { reports } = harness(sandbox);
    expect((await upstreamErrorOf(reports.getReport(2))).kind).toBe("unreachable");
    expect(await upstreamCalls(sandbox, "GET", reportPath(2))).toHaveLength(3);
  });

  it("a malformed body: bad_response, not retried, not cached", async () => {
    await sandbox.injectFault({ method: "GET", path: reportPath(3), kind: "malformed", times: 1 });
    const { reports } = harness(sandbox);
    expect(await upstreamErrorOf(reports.getReport(3))).toMatchObject({ kind: "bad_response", status: 200 });
    expect((await reports.getReport(3)).id).toBe(3);
  });

  it("a 5xx that persists: the upstream's status, after the retries for 502/503/504 only", async () => {
    await sandbox.injectFault({ method: "GET", path: reportPath(4), kind: "status", status: 503 });
    await sandbox.injectFault({ method: "GET", path: reportPath(5), kind: "status", status: 500 });
    const { reports } = harness(sandbox);
    expect(await upstreamErrorOf(reports.getReport(4))).toMatchObject({ kind: "http_status", status: 503 });
    expect(await upstreamErrorOf(reports.getReport(5))).toMatchObject({ kind: "http_status", status: 500 });
    expect(await upstreamCalls(sandbox, "GET", reportPath(4))).toHaveLength(3);
    expect(await upstreamCalls(sandbox, "GET", reportPath(5))).toHaveLength(1);
  });

  it("a 429: rate_limited with the upstream's Retry-After, not retried", async () => {
    await sandbox.injectFault({
      method: "GET",
      path: ITEMS,
      kind: "status",
      status: 429,
      headers: { "Retry-After": "42" },
    });
    const { items } = harness(sandbox);
    expect(await upstreamErrorOf(items.listItems())).toMatchObject({ kind: "rate_limited", retryAfter: "42" });
    expect(await upstreamCalls(sandbox, "GET", ITEMS)).toHaveLength(1);
  });

  it("an area that keeps failing: CircuitOpenError with Retry-After, no request sent", async () => {
    await sandbox.injectFault({ path: "/seo/*", kind: "status", status: 500 });
    const { reports } = harness(sandbox, { settings: settings({ ttlMs: { reports: 0 } }) });
    for (let i = 0; i < 5; i++) await upstreamErrorOf(reports.getReport(6));
    await sandbox.clearRequests();
    const error = await upstreamErrorOf(reports.createReport({ url: "https://gatehouse.example.org/down" }));
    expect(error).toBeInstanceOf(CircuitOpenError);
    expect(error).toMatchObject({ kind: "unreachable", retryAfter: "30" });
    expect(await upstreamCalls(sandbox)).toHaveLength(0);
  });
});

describe("no socket held for ever", () => {
  let server: Server | undefined;
  afterAll(() => {
    server?.closeAllConnections();
    server?.close();
  });

  it("after a timeout on a trickling answer, the connection that carried it is closed", async () => {
    // Counts the sockets that carried a request (undici may open a spare, idle one; its idle timeout ends it).
    let busySockets = 0;
    server = createServer((req, res) => {
      busySockets += 1;
      req.socket.once("close", () => (busySockets -= 1));
      res.writeHead(200, { "content-type": "application/json" });
      const timer = setInterval(() => res.write(" "), 50);
      res.on("close", () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const client = createReportsClient(
      { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/seo`, apiKey: CANARY.reports },
      { timeoutMs: 300, policy: new Resilience(settings()).for("reports") },
    );
    expect((await upstreamErrorOf(client.listReports({}))).kind).toBe("timeout");
    for (let i = 0; i < 100 && busySockets > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(busySockets).toBe(0);
  });
});
