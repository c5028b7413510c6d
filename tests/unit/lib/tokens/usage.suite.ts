// Token usage and quotas on a store, run on every backend (tests/unit/lib/tokens/usage.test.ts: SQLite;
// tests/unit/lib/db/postgres.test.ts): counts kept in memory, flushed with upsert-add (two flushes — two
// instances — add up), old days pruned, the month's counted requests, and a quota counted on the limiters and
// seeded from the store, with its event sent once.
import { afterEach, describe, expect, it } from "vitest";

import { createUser, type User } from "@/lib/auth/users";
import { localCluster } from "@/lib/cluster";
import type { Db } from "@/lib/db";
import { setEventSink, type PortalEvent } from "@/lib/events";
import { checkTokenLimits, nextMonthStart } from "@/lib/tokens/quota";
import { createToken, updateTokenLimits } from "@/lib/tokens/store";
import {
  flushTokenUsage,
  monthCounted,
  pendingTokenUses,
  pruneTokenUsage,
  readTokenUsage,
  recordTokenUse,
} from "@/lib/tokens/usage";
import { tokenUsageFor } from "@/lib/tokens/usage-report";

import { fast, useStore, type Backend } from "@/tests/support/store-backends";

const AT = new Date("2027-01-20T10:00:00Z");

export function tokenUsageSuite(backend: Backend): void {
  describe(`token usage and quotas (${backend.name})`, () => {
    const store = useStore(backend);
    let db: Db;
    let owner: User;

    const setUp = async () => {
      db = store().db;
      owner = await createUser(
        db,
        { email: "owner@example.com", name: "Owner", role: "editor", password: "correct horse battery" },
        fast,
      );
    };
    const token = async (limits: { rate_limit_per_minute?: number; monthly_quota?: number } = {}) =>
      (
        await createToken(
          db,
          owner,
          { name: "script", scopes: ["reports:read"], expires_in_days: 30, ...limits },
          new Date(),
        )
      ).token;

    afterEach(() => setEventSink("usage-test", null));

    it("adds what each flush wrote to the day's row, by operation and outcome, with the upstream calls", async () => {
      await setUp();
      const { id } = await token();
      const use = (operation: string, outcome: "ok" | "limited", reports: number) =>
        recordTokenUse(db, { tokenId: id, operation, outcome, upstreamCalls: { reports }, at: AT });
      use("listReports", "ok", 1);
      use("listReports", "ok", 1);
      use("listReports", "limited", 0);
      expect(pendingTokenUses()).toBe(3);
      await flushTokenUsage(db, AT);
      expect(pendingTokenUses()).toBe(0);
      // A second instance's flush of the same day and operation: added, not replaced.
      use("listReports", "ok", 2);
      await flushTokenUsage(db, AT);
      const rows = await readTokenUsage(db, [id], AT);
      expect(
        rows.map(({ operation, outcome, count, reports_calls, items_calls }) => ({
          operation,
          outcome,
          count,
          reports_calls,
          items_calls,
        })),
      ).toEqual([
        { operation: "listReports", outcome: "limited", count: 1, reports_calls: 0, items_calls: 0 },
        { operation: "listReports", outcome: "ok", count: 3, reports_calls: 4, items_calls: 0 },
      ]);
      // The month's counted requests leave out the refused before or by the limits.
      expect(await monthCounted(db, id, "2027-01")).toBe(3);
      expect(await monthCounted(db, id, "2026-12")).toBe(0);
      const report = await tokenUsageFor(db, owner, AT);
      expect(report.to).toBe("2027-01-20");
      expect(report.from).toBe("2026-12-22");
      expect(report.top_upstream).toEqual({ reports: [{ token_id: id, calls: 4 }], items: [] });
    });

    it("deletes days older than 35, and keeps the rest", async () => {
      await setUp();
      const { id } = await token();
      for (const day of ["2026-12-15", "2026-12-16", "2027-01-20"])
        recordTokenUse(db, {
          tokenId: id,
          operation: "listReports",
          outcome: "ok",
          upstreamCalls: {},
          at: new Date(`${day}T12:00:00Z`),
        });
      await flushTokenUsage(db, AT);
      expect(await pruneTokenUsage(db, AT)).toBe(1);
      const days = await db.selectFrom("token_usage_daily").select("day").orderBy("day").execute();
      expect(days.map((row) => row.day)).toEqual(["2026-12-16", "2027-01-20"]);
    });

    it("lets exactly the per-minute limit through, then refuses with the window's end", async () => {
      await setUp();
      const record = await token({ rate_limit_per_minute: 3 });
      const limits = {
        id: record.id,
        name: record.name,
        userId: owner.id,
        rateLimitPerMinute: record.rateLimitPerMinute,
        monthlyQuota: null,
      };
      const cluster = localCluster("usage-test-minute");
      const decisions = [];
      for (let i = 0; i < 5; i++) decisions.push(await checkTokenLimits(db, limits, AT, cluster));
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
      const refused = decisions[3]!;
      expect(refused).toMatchObject({ allowed: false, limit: "minute", perMinute: 3 });
      expect(refused.allowed === false && refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    });

    it("counts the monthly quota from the store's rows, refuses past it until the month turns, and tells once", async () => {
      await setUp();
      const record = await token({ monthly_quota: 4 });
      const events: PortalEvent[] = [];
      setEventSink("usage-test", async (event) => void events.push(event));
      // Two requests counted before this counter started (another process, flushed).
      for (let i = 0; i < 2; i++)
        recordTokenUse(db, { tokenId: record.id, operation: "listReports", outcome: "ok", upstreamCalls: {}, at: AT });
      await flushTokenUsage(db, AT);
      const limits = {
        id: record.id,
        name: record.name,
        userId: owner.id,
        rateLimitPerMinute: null,
        monthlyQuota: record.monthlyQuota,
      };
      const cluster = localCluster(`usage-test-month-${backend.name}`);
      const decisions = [];
      for (let i = 0; i < 4; i++) decisions.push(await checkTokenLimits(db, limits, AT, cluster));
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, false, false]);
      expect(decisions[1]).toEqual({
        allowed: true,
        quota: { limit: 4, remaining: 0, resetsAt: "2027-02-01T00:00:00.000Z" },
      });
      expect(decisions[2]).toMatchObject({
        allowed: false,
        limit: "month",
        quota: 4,
        resetsAt: "2027-02-01T00:00:00.000Z",
        retryAfterSeconds: (nextMonthStart(AT).getTime() - AT.getTime()) / 1000,
      });
      expect(events.map((event) => [event.type, event.data.month, event.data.quota])).toEqual([
        ["token.quota_reached", "2027-01", 4],
      ]);
      // Raised by its owner: the next request passes on the same counter.
      const raised = await updateTokenLimits(db, owner, record.id, { monthly_quota: 5 });
      expect(raised.token.monthlyQuota).toBe(5);
      expect((await checkTokenLimits(db, { ...limits, monthlyQuota: 5 }, AT, cluster)).allowed).toBe(true);
      expect(events).toHaveLength(1);
    });
  });
}
