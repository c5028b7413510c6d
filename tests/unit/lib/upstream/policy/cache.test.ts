// The read cache and single flight, against the sandbox: what is cached and for how long, what the key is made
// of, its bounds, stale-while-revalidate, and identical concurrent reads coalesced into one upstream call.
import { setTimeout as sleep } from "node:timers/promises";

import { describe, expect, it } from "vitest";

import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";
import type { Resilience } from "@/lib/upstream/policy";
import { ResponseCache } from "@/lib/upstream/policy/cache";

import { CANARY } from "@/tests/support/canary";

import {
  ACCOUNT,
  harness,
  ITEM,
  ITEMS,
  ManualClock,
  PROJECTS,
  reportPath,
  REPORTS,
  settings,
  upstreamCalls,
  upstreamErrorOf,
  VALIDATION,
  withClients,
} from "@/tests/support/resilience";
import { setUpCanarySandbox } from "@/tests/support/set-up-sandbox";

const sandbox = setUpCanarySandbox();

describe("what is cached, and for how long", () => {
  it("reports, projects and single reports for 15 s by default; account and items for 60 s", async () => {
    const clock = new ManualClock();
    const { reports, items, resilience } = harness(sandbox, { clock });
    const readAll = () =>
      Promise.all([
        reports.listReports({}),
        reports.getReport(2),
        reports.listProjects({}),
        items.getAccount(),
        items.listItems(),
        items.getItem(100002),
      ]);
    await readAll();
    await readAll();
    expect(await upstreamCalls(sandbox)).toHaveLength(6);

    clock.advance(15_000); // area A expired (served stale once, refreshed); area B still fresh
    await readAll();
    await refreshesDone(resilience);
    const paths = (await upstreamCalls(sandbox))
      .slice(6)
      .map((r) => r.path)
      .sort();
    expect(paths).toEqual([PROJECTS, REPORTS, reportPath(2)].sort());

    clock.advance(45_000); // 60 s: area B expired too
    await readAll();
    await refreshesDone(resilience);
    expect((await upstreamCalls(sandbox)).slice(9).map((r) => r.path)).toEqual(
      expect.arrayContaining([ACCOUNT, ITEMS, ITEM]),
    );
  });

  it("a TTL of 0 turns the cache off for that area", async () => {
    const { reports, items } = harness(sandbox, { settings: settings({ ttlMs: { reports: 0 } }) });
    await reports.getReport(3);
    await reports.getReport(3);
    await items.getAccount();
    await items.getAccount();
    expect(await upstreamCalls(sandbox, "GET", reportPath(3))).toHaveLength(2);
    expect(await upstreamCalls(sandbox, "GET", ACCOUNT)).toHaveLength(1);
  });

  it("purchase validations are never cached", async () => {
    const { items } = harness(sandbox);
    await items.validatePurchase(FIXED_PURCHASE_CODES.active);
    await items.validatePurchase(FIXED_PURCHASE_CODES.active);
    expect(await upstreamCalls(sandbox, "POST", VALIDATION)).toHaveLength(2);
  });

  it("failures are not cached: the next read asks again", async () => {
    const { reports } = harness(sandbox, { settings: settings({ retries: 0 }) });
    await sandbox.injectFault({ method: "GET", path: reportPath(4), kind: "status", status: 500, times: 1 });
    await upstreamErrorOf(reports.getReport(4));
    expect((await reports.getReport(4)).id).toBe(4);
    expect(await upstreamCalls(sandbox, "GET", reportPath(4))).toHaveLength(2);
  });

  it("cached answers are frozen: a caller cannot change what the next one gets", async () => {
    const { reports } = harness(sandbox);
    const page = await reports.listReports({});
    expect(() => {
      (page.data as unknown as unknown[]).pop();
    }).toThrow(TypeError);
    expect((await reports.listReports({})).data).toHaveLength(10);
  });
});

describe("the key: the full normalised request", () => {
  it("the same query in another order is the same entry; another value is another", async () => {
    const { reports } = harness(sandbox);
    await reports.listReports({ result: "good", sort: "asc", per_page: 25 });
    await reports.listReports({ per_page: 25, sort: "asc", result: "good" });
    await reports.listReports({ per_page: 25, sort: "asc", result: "bad" });
    await reports.listReports({ per_page: 25, sort: "asc", result: "good", page: 2 });
    expect(await upstreamCalls(sandbox, "GET", REPORTS)).toHaveLength(3);
  });

  it("which key asked is part of it (as a fingerprint, never the key itself)", async () => {
    const first = harness(sandbox);
    const second = withClients(sandbox, first.resilience, { apiKeys: { items: "sandbox-items-key-2" } });
    const mine = await first.items.listItems();
    const theirs = await second.items.listItems();
    expect(theirs).not.toEqual(mine);
    await first.items.listItems();
    await second.items.listItems();
    expect(await upstreamCalls(sandbox, "GET", ITEMS)).toHaveLength(2);
    const keys = first.resilience.cache.keys().join("\n");
    expect(keys).not.toContain(CANARY.items);
    expect(keys).not.toContain("sandbox-items-key-2");
    expect(keys).not.toContain("api_key");
  });

  it("an item's id is part of it", async () => {
    const { items } = harness(sandbox);
    const all = await items.listItems();
    const [a, b] = [all[0]!.id, all[1]!.id];
    expect((await items.getItem(a)).id).toBe(a);
    expect((await items.getItem(b)).id).toBe(b);
    expect((await items.getItem(a)).id).toBe(a);
    expect(await upstreamCalls(sandbox, "GET", ITEM)).toHaveLength(2);
  });
});

describe("bounds", () => {
  it("holds at most maxEntries, dropping the least recently used", async () => {
    const { reports, resilience } = harness(sandbox, { settings: settings({ cacheLimits: { maxEntries: 2 } }) });
    await reports.getReport(1);
    await reports.getReport(2);
    await reports.getReport(1); // 1 is now the most recently used
    await reports.getReport(3); // evicts 2
    expect(resilience.cache.stats().entries).toBe(2);
    await reports.getReport(1);
    await reports.getReport(2);
    expect(await upstreamCalls(sandbox, "GET", reportPath(1))).toHaveLength(1);
    expect(await upstreamCalls(sandbox, "GET", reportPath(2))).toHaveLength(2);
  });

  it("holds at most maxBytes, and never an answer bigger than that", () => {
    const cache = new ResponseCache({ maxEntries: 100, maxBytes: 1000 });
    const options = { ttlMs: 1000, staleMs: 1000, tags: ["t"] };
    cache.store("a", "x", { ...options, bytes: 400 });
    cache.store("b", "y", { ...options, bytes: 400 });
    cache.store("c", "z", { ...options, bytes: 400 });
    expect(cache.keys()).toEqual(["b", "c"]);
    expect(cache.stats().bytes).toBe(800);
    cache.store("huge", "w", { ...options, bytes: 1001 });
    expect(cache.keys()).toEqual(["b", "c"]);
  });

  it("a key stored again keeps the tags of its new answer, and a change drops it", () => {
    const cache = new ResponseCache({ maxEntries: 100, maxBytes: 1000 });
    const options = { ttlMs: 1000, staleMs: 1000, bytes: 10 };
    cache.store("list", "old", { ...options, tags: ["reports:list", "reports:item:1"] });
    cache.store("list", "new", { ...options, tags: ["reports:list"] });
    expect(cache.lookup("list")).toEqual({ kind: "fresh", value: "new" });
    // The old answer's tag no longer reaches it; the new one's does.
    expect(cache.invalidate(["reports:item:1"])).toBe(0);
    expect(cache.invalidate(["reports:list"])).toBe(1);
    expect(cache.lookup("list")).toEqual({ kind: "miss" });
  });
});

describe("stale-while-revalidate", () => {
  it("an expired entry is served once while it is refreshed; the next reader gets the new answer", async () => {
    const clock = new ManualClock();
    const { reports, resilience } = harness(sandbox, { clock });
    const before = await reports.getReport(5);
    // Changed behind Gatehouse's back (another client of the upstream): the cache cannot know.
    await fetch(`${sandbox.reportsBaseUrl}/api/v1/reports/5`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${CANARY.reports}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: `privacy=${before.privacy === 1 ? 0 : 1}`,
    });
    clock.advance(15_000);
    expect((await reports.getReport(5)).privacy).toBe(before.privacy); // stale, once
    await refreshesDone(resilience);
    expect((await reports.getReport(5)).privacy).not.toBe(before.privacy); // the refresh landed
    expect(await upstreamCalls(sandbox, "GET", reportPath(5))).toHaveLength(2);
  });

  it("past its stale window (another TTL) an entry is not served at all", async () => {
    const clock = new ManualClock();
    const { reports } = harness(sandbox, { clock });
    await reports.getReport(6);
    clock.advance(30_000);
    await reports.getReport(6);
    expect(await upstreamCalls(sandbox, "GET", reportPath(6))).toHaveLength(2);
  });

  it("a failed refresh is not served stale again: the next reader waits for the upstream", async () => {
    const clock = new ManualClock();
    const { reports, resilience } = harness(sandbox, { clock, settings: settings({ retries: 0 }) });
    await reports.getReport(7);
    clock.advance(15_000);
    await sandbox.injectFault({ method: "GET", path: reportPath(7), kind: "status", status: 500, times: 1 });
    expect((await reports.getReport(7)).id).toBe(7); // stale, while the refresh fails
    await refreshesDone(resilience);
    expect((await reports.getReport(7)).id).toBe(7); // a fresh call
    expect(await upstreamCalls(sandbox, "GET", reportPath(7))).toHaveLength(3);
  });
});

describe("single flight", () => {
  it("identical concurrent reads make one upstream call, even with the cache off", async () => {
    const { reports } = harness(sandbox, { settings: settings({ ttlMs: { reports: 0 } }) });
    await sandbox.injectFault({ method: "GET", path: REPORTS, kind: "latency", latencyMs: 200, times: 1 });
    const answers = await Promise.all(Array.from({ length: 25 }, () => reports.listReports({ per_page: 25 })));
    expect(await upstreamCalls(sandbox, "GET", REPORTS)).toHaveLength(1);
    for (const answer of answers) expect(answer).toBe(answers[0]);
  });

  it("different requests are not coalesced", async () => {
    const { reports } = harness(sandbox);
    await Promise.all([
      reports.getReport(1),
      reports.getReport(2),
      reports.listReports({}),
      reports.listReports({ page: 2 }),
    ]);
    expect(await upstreamCalls(sandbox)).toHaveLength(4);
  });

  it("a failure is shared by everyone who waited for it, and is not remembered", async () => {
    const { reports } = harness(sandbox, { settings: settings({ retries: 0 }) });
    await sandbox.injectFault({ method: "GET", path: PROJECTS, kind: "status", status: 500, latencyMs: 150, times: 1 });
    const errors = await Promise.all(Array.from({ length: 10 }, () => upstreamErrorOf(reports.listProjects({}))));
    expect(new Set(errors).size).toBe(1);
    expect(errors[0]).toMatchObject({ kind: "http_status", status: 500 });
    expect((await reports.listProjects({})).data.length).toBeGreaterThan(0);
    expect(await upstreamCalls(sandbox, "GET", PROJECTS)).toHaveLength(2);
  });
});

/** Waits for the background refreshes (stale-while-revalidate) to land. */
async function refreshesDone(resilience: Resilience): Promise<void> {
  for (let i = 0; i < 500 && resilience.flights.size() > 0; i++) await sleep(10);
  expect(resilience.flights.size()).toBe(0);
}
