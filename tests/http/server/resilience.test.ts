// The policies inside the real gateway (next start ↔ sandbox), signed in: the status each failure becomes,
// retries and the upstream statuses in the log line, the cache shared by every route (a change through one route
// drops what another cached), coalescing of 100 identical requests, and the breaker's 503 with Retry-After.
import { beforeEach, describe, expect, it } from "vitest";

import { ITEMS, PROJECTS, reportPath, REPORTS, upstreamCalls } from "@/tests/support/resilience";
import { setUpGateway } from "@/tests/support/set-up-gateway";

/** Every policy as in production, except a shorter timeout so that the timeout test is quick. */
const POLICIES_ON = {
  UPSTREAM_TIMEOUT_MS: "1500",
  UPSTREAM_RETRIES: "2",
  UPSTREAM_BREAKER_FAILURES: "5",
  UPSTREAM_BREAKER_OPEN_MS: "30000",
  UPSTREAM_CACHE_REPORTS_TTL_MS: "15000",
  UPSTREAM_CACHE_ITEMS_TTL_MS: "60000",
};

const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

describe("failures, retries and the cache", () => {
  const {
    sandbox,
    gateway,
    client: api,
  } = setUpGateway({
    signIn: "admin",
    // A breaker that never opens here: these tests fail on purpose, one after the other.
    env: { ...POLICIES_ON, UPSTREAM_BREAKER_FAILURES: "0" },
    assertNoKeyLeaked: true,
  });
  beforeEach(async () => {
    await sandbox.clearFaults();
    await sandbox.clearRequests();
  });

  it("a GET answered 503 once is retried and answers 200; the log line shows both exchanges", async () => {
    await sandbox.injectFault({ method: "GET", path: reportPath(3), kind: "status", status: 503, times: 1 });
    const res = await api.request("/api/reports/3");
    expect(res.status).toBe(200);
    const line = await gateway.logLineFor(res.headers.get("x-request-id")!);
    expect(line.upstream).toMatchObject([{ status: 503 }, { status: 200, outcome: "ok" }]);
  });

  it("an upstream 5xx that persists → 502 upstream_error, with every attempt's status in the log", async () => {
    await sandbox.injectFault({ method: "GET", path: reportPath(4), kind: "status", status: 503 });
    const res = await api.request("/api/reports/4");
    expect(res.status).toBe(502);
    expect(res.json.error.code).toBe("upstream_error");
    const line = await gateway.logLineFor(res.headers.get("x-request-id")!);
    expect(line).toMatchObject({ status: 502, upstream: [{ status: 503 }, { status: 503 }, { status: 503 }] });
  });

  it("a POST is sent once, whatever the failure → 502", async () => {
    await sandbox.injectFault({ method: "POST", path: REPORTS, kind: "reset", times: 1 });
    const res = await api.request("/api/reports", json("POST", { url: "https://gatehouse.example.org/once" }));
    expect(res.status).toBe(502);
    expect(res.json.error.code).toBe("upstream_unreachable");
    expect(await upstreamCalls(sandbox, "POST", REPORTS)).toHaveLength(1);
  });

  it("an upstream 429 → 429 with its Retry-After, not retried", async () => {
    await sandbox.injectFault({
      method: "GET",
      path: reportPath(5),
      kind: "status",
      status: 429,
      headers: { "Retry-After": "17" },
    });
    const res = await api.request("/api/reports/5");
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("17");
    expect(await upstreamCalls(sandbox, "GET", reportPath(5))).toHaveLength(1);
  });

  it("a hung upstream → 504 upstream_timeout once the one budget is spent", async () => {
    await sandbox.injectFault({ method: "GET", path: reportPath(6), kind: "hang" });
    const res = await api.request("/api/reports/6");
    expect(res.status).toBe(504);
    expect(res.json.error.code).toBe("upstream_timeout");
  });

  it("reads are cached; a change through one route drops what the other routes cached", async () => {
    const list = "/api/reports?per_page=25&sort=asc";
    await api.request(list);
    const report = await api.request("/api/reports/7");
    await api.request("/api/projects?per_page=100");
    await api.request(list);
    await api.request("/api/reports/7");
    await api.request("/api/projects?per_page=100");
    expect(await upstreamCalls(sandbox)).toHaveLength(3);

    // PATCH /api/reports/7 drops report 7, the report lists and the project lists.
    const privacy = report.json.data.privacy === 1 ? 0 : 1;
    expect((await api.request("/api/reports/7", json("PATCH", { privacy }))).status).toBe(200);
    expect((await api.request("/api/reports/7")).json.data.privacy).toBe(privacy);
    expect((await api.request(list)).json.data.find((r: { id: number }) => r.id === 7).privacy).toBe(privacy);

    // POST /api/reports (another route) makes a new project appear in GET /api/projects (a third route).
    expect(
      (await api.request("/api/reports", json("POST", { url: "https://cache-test-project.example/" }))).status,
    ).toBe(201);
    const projects = await api.request("/api/projects?per_page=100");
    expect(projects.json.data.map((p: { project: string }) => p.project)).toContain("cache-test-project.example");

    // DELETE /api/projects/{name} drops every single report, whichever route cached it.
    const doomed = (await api.request(`/api/reports?project=cache-test-project.example`)).json.data[0].id;
    expect((await api.request(`/api/reports/${doomed}`)).status).toBe(200);
    expect((await api.request("/api/projects/cache-test-project.example", { method: "DELETE" })).status).toBe(204);
    expect((await api.request(`/api/reports/${doomed}`)).status).toBe(404);
  });

  it("100 identical concurrent GETs make exactly 1 upstream call", async () => {
    await sandbox.injectFault({ method: "GET", path: PROJECTS, kind: "latency", latencyMs: 500, times: 1 });
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => api.request("/api/projects?sort_by=project&sort=asc")),
    );
    expect(answers.every((res) => res.status === 200)).toBe(true);
    expect(new Set(answers.map((res) => res.text)).size).toBe(1);
    expect(await upstreamCalls(sandbox, "GET", PROJECTS)).toHaveLength(1);
  });

  it("/api/ready asks the upstreams themselves and shows each breaker", async () => {
    const res = await api.request("/api/ready");
    expect(res.status).toBe(200);
    expect(res.json.breakers).toEqual({
      reports: { state: "closed", retry_in_ms: 0 },
      items: { state: "closed", retry_in_ms: 0 },
    });
    expect(await upstreamCalls(sandbox, "GET", PROJECTS)).toHaveLength(1);
  });
});

describe("the circuit breaker", () => {
  const { sandbox, client: api } = setUpGateway({ signIn: "admin", env: POLICIES_ON });

  it("5 consecutive failures open it: 503 upstream_unavailable with Retry-After, and the upstream is left alone", async () => {
    await sandbox.clearRequests();
    await sandbox.injectFault({ path: "/market/*", kind: "status", status: 500 });
    for (let i = 0; i < 5; i++) expect((await api.request("/api/items")).status).toBe(502);
    expect(await upstreamCalls(sandbox, "GET", ITEMS)).toHaveLength(5);

    const refused = await api.request("/api/items");
    expect(refused.status).toBe(503);
    expect(refused.json.error.code).toBe("upstream_unavailable");
    expect(refused.json.error.message).toMatch(/not answering; retrying in \d+ s/);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(30);
    expect(await upstreamCalls(sandbox, "GET", ITEMS)).toHaveLength(5);

    // Area A is another breaker: still served.
    expect((await api.request("/api/reports")).status).toBe(200);

    const ready = await api.request("/api/ready");
    expect(ready.status).toBe(503);
    expect(ready.json.breakers.items).toMatchObject({ state: "open", retry_in_ms: expect.any(Number) });
    expect(ready.json.breakers.reports.state).toBe("closed");
    expect(ready.json.areas.items.problem).toContain("circuit open");
  });
});
