// When a schedule runs next, in its project's time zone, across daylight-saving changes.
import { describe, expect, it } from "vitest";

import { describeTiming, isTimeZone, nextRunAt, type ScheduleTiming } from "@/lib/reports/schedule-time";

const daily = (time: string, time_zone: string): ScheduleTiming => ({
  frequency: "daily",
  weekday: null,
  time,
  time_zone,
});
const weekly = (weekday: number, time: string, time_zone: string): ScheduleTiming => ({
  frequency: "weekly",
  weekday,
  time,
  time_zone,
});
const iso = (date: Date) => date.toISOString();

describe("nextRunAt", () => {
  it("runs daily at the local time: later today, or tomorrow once it has passed (strictly after)", () => {
    expect(iso(nextRunAt(daily("06:00", "Europe/Berlin"), new Date("2026-11-24T04:00:00Z")))).toBe(
      "2026-11-24T05:00:00.000Z",
    );
    expect(iso(nextRunAt(daily("06:00", "Europe/Berlin"), new Date("2026-11-24T05:00:00Z")))).toBe(
      "2026-11-25T05:00:00.000Z",
    );
    expect(iso(nextRunAt(daily("23:30", "America/New_York"), new Date("2026-11-24T12:00:00Z")))).toBe(
      "2026-11-25T04:30:00.000Z",
    );
    expect(iso(nextRunAt(daily("00:00", "UTC"), new Date("2026-12-31T23:59:00Z")))).toBe("2027-01-01T00:00:00.000Z");
  });

  it("runs weekly on the weekday in the zone, which may be another day in UTC", () => {
    // 2026-11-24 is a Tuesday. Mondays 06:00 in Berlin: next Monday.
    expect(iso(nextRunAt(weekly(1, "06:00", "Europe/Berlin"), new Date("2026-11-24T10:00:00Z")))).toBe(
      "2026-11-30T05:00:00.000Z",
    );
    // Tuesdays 08:00 in Tokyo is Monday 23:00 UTC: already past this week.
    expect(iso(nextRunAt(weekly(2, "08:00", "Asia/Tokyo"), new Date("2026-11-24T10:00:00Z")))).toBe(
      "2026-11-30T23:00:00.000Z",
    );
    expect(iso(nextRunAt(weekly(2, "20:00", "Europe/Berlin"), new Date("2026-11-24T10:00:00Z")))).toBe(
      "2026-11-24T19:00:00.000Z",
    );
  });

  it("keeps the local time across a DST change, and runs a skipped or repeated local time once", () => {
    // Berlin springs forward on 2026-03-29 (02:00 → 03:00) and falls back on 2026-10-25 (03:00 → 02:00).
    expect(iso(nextRunAt(daily("06:00", "Europe/Berlin"), new Date("2026-03-28T06:00:00Z")))).toBe(
      "2026-03-29T04:00:00.000Z",
    );
    expect(iso(nextRunAt(daily("06:00", "Europe/Berlin"), new Date("2026-10-24T05:00:00Z")))).toBe(
      "2026-10-25T05:00:00.000Z",
    );
    // 02:30 does not exist on 2026-03-29: the run is at 03:30 local (01:30 UTC), once.
    const spring = nextRunAt(daily("02:30", "Europe/Berlin"), new Date("2026-03-28T12:00:00Z"));
    expect(iso(spring)).toBe("2026-03-29T01:30:00.000Z");
    expect(iso(nextRunAt(daily("02:30", "Europe/Berlin"), spring))).toBe("2026-03-30T00:30:00.000Z");
    // 02:30 happens twice on 2026-10-25: one run.
    const autumn = nextRunAt(daily("02:30", "Europe/Berlin"), new Date("2026-10-24T12:00:00Z"));
    expect(iso(nextRunAt(daily("02:30", "Europe/Berlin"), autumn)).slice(0, 10)).toBe("2026-10-26");
  });

  it("refuses an unknown zone", () => {
    expect(() => nextRunAt(daily("06:00", "Mars/Olympus"), new Date())).toThrow(/time zone/);
    expect([isTimeZone("Europe/Berlin"), isTimeZone("UTC"), isTimeZone("Mars/Olympus")]).toEqual([true, true, false]);
  });
});

describe("describeTiming", () => {
  it("says when, in words", () => {
    expect(describeTiming(daily("06:00", "UTC"))).toBe("Daily at 06:00 (UTC)");
    expect(describeTiming(weekly(7, "18:15", "Europe/Berlin"))).toBe("Sundays at 18:15 (Europe/Berlin)");
  });
});
