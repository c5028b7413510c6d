// The circuit breaker of each area: 5 consecutive failed attempts open it; while open, calls fail at once with
// CircuitOpenError (no upstream request) and a Retry-After; after the open period one trial request decides.
// The clock is moved by hand; the upstream is the real sandbox.
import { describe, expect, it } from "vitest";

import { CircuitOpenError } from "@/lib/upstream/errors";
import { CircuitBreaker } from "@/lib/upstream/policy/breaker";
import { checkReadiness } from "@/lib/upstream/readiness";

import {
  ACCOUNT,
  harness,
  ManualClock,
  PROJECTS,
  reportPath,
  REPORTS,
  settings,
  upstreamCalls,
  upstreamErrorOf,
  waitForUpstreamCalls,
} from "@/tests/support/resilience";
import { setUpCanarySandbox } from "@/tests/support/set-up-sandbox";

const sandbox = setUpCanarySandbox();

// No retries and no cache: each call is one attempt, so the counts below are the breaker's alone.
const plain = { retries: 0, ttlMs: { reports: 0, items: 0 }, breaker: { failureThreshold: 5, openMs: 30_000 } };

describe("through the clients, against the sandbox", () => {
  it("opens after 5 consecutive failures, then answers at once without calling the upstream", async () => {
    const clock = new ManualClock();
    const { reports, resilience } = harness(sandbox, { settings: settings(plain), clock });
    await sandbox.injectFault({ method: "GET", path: REPORTS, kind: "status", status: 500 });

    for (let i = 0; i < 4; i++) await upstreamErrorOf(reports.listReports({}));
    expect(resilience.breakerStatus("reports")).toMatchObject({ state: "closed", consecutiveFailures: 4 });
    await upstreamErrorOf(reports.listReports({}));
    expect(resilience.breakerStatus("reports")).toEqual({ state: "open", retryInMs: 30_000, consecutiveFailures: 5 });

    clock.advance(12_300);
    const refused = await upstreamErrorOf(reports.getReport(1));
    expect(refused).toBeInstanceOf(CircuitOpenError);
    expect(refused).toMatchObject({
      area: "reports",
      operation: "reports.show",
      retryAfterSeconds: 18,
      retryAfter: "18",
    });
    expect(refused.message).toContain("circuit open");
    expect(await upstreamCalls(sandbox, "GET", reportPath(1))).toHaveLength(0);
    expect(await upstreamCalls(sandbox, "GET", REPORTS)).toHaveLength(5);
  });

  it("is per area: area A's open breaker leaves area B alone", async () => {
    const { reports, items, resilience } = harness(sandbox, { settings: settings(plain), clock: new ManualClock() });
    await sandbox.injectFault({ path: "/seo/*", kind: "reset" });
    for (let i = 0; i < 5; i++) await upstreamErrorOf(reports.listProjects({}));
    expect(resilience.breakerStatus("reports").state).toBe("open");
    expect(resilience.breakerStatus("items").state).toBe("closed");
    expect((await items.getAccount()).username).toBeTruthy();
  });

  it("after the open period one trial goes through: success closes the breaker", async () => {
    const clock = new ManualClock();
    const { reports, resilience } = harness(sandbox, { settings: settings(plain), clock });
    await sandbox.injectFault({ method: "GET", path: REPORTS, kind: "status", status: 503, times: 5 });
    for (let i = 0; i < 5; i++) await upstreamErrorOf(reports.listReports({}));
    expect(resilience.breakerStatus("reports").state).toBe("open");

    clock.advance(30_000);
    expect(resilience.breakerStatus("reports")).toMatchObject({ state: "half_open", retryInMs: 0 });
    // The trial is held up by the upstream; a second call meanwhile is refused rather than piling on.
    await sandbox.injectFault({ method: "GET", path: REPORTS, kind: "latency", latencyMs: 1500, times: 1 });
    const before = (await upstreamCalls(sandbox, "GET", REPORTS)).length;
    const trial = reports.listReports({});
    await waitForUpstreamCalls(sandbox, "GET", REPORTS, before + 1);
    expect(await upstreamErrorOf(reports.listReports({ page: 2 }))).toBeInstanceOf(CircuitOpenError);
    expect((await trial).data).toHaveLength(10);
    expect(resilience.breakerStatus("reports")).toEqual({ state: "closed", retryInMs: 0, consecutiveFailures: 0 });
    expect((await reports.listReports({ page: 2 })).meta.page).toBe(2);
  });

  it("a failed trial opens it again for a full period", async () => {
    const clock = new ManualClock();
    const { reports, resilience } = harness(sandbox, { settings: settings(plain), clock });
    await sandbox.injectFault({ method: "GET", path: PROJECTS, kind: "status", status: 502 });
    for (let i = 0; i < 5; i++) await upstreamErrorOf(reports.listProjects({}));
    clock.advance(31_000);
    expect((await upstreamErrorOf(reports.listProjects({}))).kind).toBe("http_status"); // the trial reached the upstream
    expect(resilience.breakerStatus("reports")).toMatchObject({ state: "open", retryInMs: 30_000 });
    expect(await upstreamCalls(sandbox, "GET", PROJECTS)).toHaveLength(6);
  });

  it("answers that are not outages do not count: 404, 422, 429, 401 and a malformed body", async () => {
    const { reports, resilience } = harness(sandbox, { settings: settings(plain), clock: new ManualClock() });
    await sandbox.injectFault({ method: "GET", path: REPORTS, kind: "status", status: 429, times: 3 });
    await sandbox.injectFault({ method: "GET", path: REPORTS, kind: "status", status: 401, times: 2 });
    await sandbox.injectFault({ method: "GET", path: REPORTS, kind: "malformed", times: 2 });
    for (let i = 0; i < 7; i++) await upstreamErrorOf(reports.listReports({}));
    for (let i = 0; i < 3; i++) await upstreamErrorOf(reports.getReport(987_654));
    expect(resilience.breakerStatus("reports")).toEqual({ state: "closed", retryInMs: 0, consecutiveFailures: 0 });
  });

  it("a success in between starts the count again: failures must be consecutive", async () => {
    const { reports, resilience } = harness(sandbox, { settings: settings(plain), clock: new ManualClock() });
    await sandbox.injectFault({ method: "GET", path: REPORTS, kind: "status", status: 500, times: 4 });
    for (let i = 0; i < 4; i++) await upstreamErrorOf(reports.listReports({}));
    await reports.listReports({});
    await sandbox.injectFault({ method: "GET", path: REPORTS, kind: "status", status: 500, times: 4 });
    for (let i = 0; i < 4; i++) await upstreamErrorOf(reports.listReports({}));
    expect(resilience.breakerStatus("reports")).toMatchObject({ state: "closed", consecutiveFailures: 4 });
  });

  it("with retries on, each attempt counts: two calls of three attempts open it", async () => {
    const { reports, resilience } = harness(sandbox, {
      settings: settings({ ...plain, retries: 2 }),
      clock: new ManualClock(),
    });
    await sandbox.injectFault({ method: "GET", path: REPORTS, kind: "status", status: 503 });
    await upstreamErrorOf(reports.listReports({}));
    expect(resilience.breakerStatus("reports").consecutiveFailures).toBe(3);
    // The fifth attempt opens it; the sixth is refused before it is sent.
    expect(await upstreamErrorOf(reports.listReports({}))).toBeInstanceOf(CircuitOpenError);
    expect(await upstreamCalls(sandbox, "GET", REPORTS)).toHaveLength(5);
  });

  it("readiness shows each breaker, and does not call an area whose breaker is open", async () => {
    const clock = new ManualClock();
    const h = harness(sandbox, { settings: settings(plain), clock });
    await sandbox.injectFault({ path: "/seo/*", kind: "status", status: 503 });
    for (let i = 0; i < 5; i++) await upstreamErrorOf(h.reports.listReports({}));
    await sandbox.clearRequests();

    const upstreams = { config: { mode: "configured" }, reports: h.reports, items: h.items } as unknown as Parameters<
      typeof checkReadiness
    >[0];
    const readiness = await checkReadiness(upstreams, (area) => h.resilience.breakerStatus(area));
    expect(readiness.status).toBe("not_ready");
    expect(readiness.areas.reports).toMatchObject({
      configured: true,
      reachable: false,
      problem: "the upstream is not answering (circuit open); retrying in 30 s",
    });
    expect(readiness.areas.items).toMatchObject({ reachable: true, key_accepted: true });
    expect(readiness.breakers).toEqual({
      reports: { state: "open", retry_in_ms: 30_000 },
      items: { state: "closed", retry_in_ms: 0 },
    });
    expect(await upstreamCalls(sandbox, "GET", PROJECTS)).toHaveLength(0);
    expect(await upstreamCalls(sandbox, "GET", ACCOUNT)).toHaveLength(1);
  });
});

describe("the breaker on its own", () => {
  it("a threshold of 0 turns it off", () => {
    const breaker = new CircuitBreaker("items", { failureThreshold: 0, openMs: 1000 });
    for (let i = 0; i < 50; i++) breaker.acquire("items.all").settle("failure");
    expect(breaker.status().state).toBe("closed");
  });

  it("Retry-After is whole seconds and at least 1 while a trial is out", () => {
    let now = 0;
    const breaker = new CircuitBreaker("items", { failureThreshold: 1, openMs: 1500 }, () => now);
    breaker.acquire("items.all").settle("failure");
    expect(() => breaker.acquire("items.all")).toThrow(expect.objectContaining({ retryAfterSeconds: 2 }));
    now = 1500;
    const trial = breaker.acquire("items.all");
    expect(() => breaker.acquire("items.all")).toThrow(expect.objectContaining({ retryAfterSeconds: 1 }));
    trial.settle("success");
    expect(breaker.status()).toEqual({ state: "closed", retryInMs: 0, consecutiveFailures: 0 });
  });
});

describe("the breaker with other instances", () => {
  it("says when it opens and when it closes again, and follows what another instance's breaker found", () => {
    let now = 0;
    const heard: string[] = [];
    const breaker = new CircuitBreaker("reports", { failureThreshold: 2, openMs: 1000 }, () => now, {
      opened: (until) => heard.push(`opened until ${until}`),
      closed: () => heard.push("closed"),
    });
    breaker.acquire("reports.list").settle("failure");
    breaker.acquire("reports.list").settle("failure");
    expect(heard).toEqual(["opened until 1000"]);
    now = 1000;
    breaker.acquire("reports.list").settle("success");
    expect(heard).toEqual(["opened until 1000", "closed"]);

    // Another instance opened its breaker: refuse until then, without telling anyone (the other did).
    breaker.openUntil(5000);
    expect(breaker.status()).toMatchObject({ state: "open", retryInMs: 4000 });
    expect(() => breaker.acquire("reports.list")).toThrow(expect.objectContaining({ retryAfterSeconds: 4 }));
    breaker.closeFromPeer();
    expect(breaker.status().state).toBe("closed");
    expect(heard).toHaveLength(2);
  });
});
