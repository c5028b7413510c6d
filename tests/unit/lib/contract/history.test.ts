// The schemas of reports over time: a schedule's body (time, IANA zone, weekday for weekly only), trends' days,
// compare's two days in order, and the acknowledge body (ids or all).
import { describe, expect, it } from "vitest";

import { AlertAckBodySchema, CompareQuerySchema, ScheduleBodySchema, TrendQuerySchema } from "@/lib/contract/history";

const issues = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  result.error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`) ?? [];

describe("ScheduleBodySchema", () => {
  it("takes a daily or weekly schedule at a local time in an IANA zone", () => {
    expect(
      ScheduleBodySchema.parse({ enabled: true, frequency: "daily", time: "06:00", time_zone: "Europe/Berlin" }),
    ).toEqual({
      enabled: true,
      frequency: "daily",
      time: "06:00",
      time_zone: "Europe/Berlin",
    });
    expect(
      ScheduleBodySchema.safeParse({ enabled: true, frequency: "weekly", weekday: 7, time: "23:59", time_zone: "UTC" })
        .success,
    ).toBe(true);
  });

  it("refuses what a person could get wrong, with a sentence for each field", () => {
    expect(
      issues(ScheduleBodySchema.safeParse({ enabled: true, frequency: "weekly", time: "24:00", time_zone: "Berlin" })),
    ).toEqual([
      "time: must be a time of day, HH:MM (00:00 to 23:59)",
      "time_zone: must be an IANA time zone name such as Europe/Berlin, America/New_York or UTC",
      "weekday: is required for a weekly schedule: 1 (Monday) to 7 (Sunday)",
    ]);
    expect(
      issues(
        ScheduleBodySchema.safeParse({
          enabled: true,
          frequency: "daily",
          weekday: 1,
          time: "06:00",
          time_zone: "UTC",
        }),
      ),
    ).toEqual(["weekday: only applies to a weekly schedule; leave it out for daily"]);
    expect(
      issues(
        ScheduleBodySchema.safeParse({ enabled: "yes", frequency: "hourly", time: "6", time_zone: "+01:00", extra: 1 }),
      ).length,
    ).toBeGreaterThanOrEqual(4);
  });
});

describe("the queries", () => {
  it("trends take 30, 90 or 365 days", () => {
    expect(TrendQuerySchema.parse({ days: "90" })).toEqual({ days: 90 });
    expect(TrendQuerySchema.safeParse({ days: "7" }).success).toBe(false);
  });
  it("compare wants from no later than to", () => {
    expect(CompareQuerySchema.safeParse({ from: "2026-11-01", to: "2026-11-02" }).success).toBe(true);
    expect(issues(CompareQuerySchema.safeParse({ from: "2026-11-03", to: "2026-11-02" }))).toEqual([
      "from: must not be after to",
    ]);
    expect(CompareQuerySchema.safeParse({ from: "2026-11-31", to: "2026-12-01" }).success).toBe(false);
  });
  it("acknowledge takes ids or all, not both or neither", () => {
    expect(AlertAckBodySchema.safeParse({ ids: [1, 2] }).success).toBe(true);
    expect(AlertAckBodySchema.safeParse({ all: true }).success).toBe(true);
    expect(AlertAckBodySchema.safeParse({ ids: [1], all: true }).success).toBe(false);
    expect(AlertAckBodySchema.safeParse({}).success).toBe(false);
    expect(AlertAckBodySchema.safeParse({ ids: [] }).success).toBe(false);
  });
});
