// Quiet hours on the person's wall clock, in two zones, across midnight and across a clock change.
import { describe, expect, it } from "vitest";

import { hhmm, isQuiet, minuteOf, quietUntil, wallClock } from "@/lib/notifications/quiet-hours";

const Q22 = 22 * 60;
const Q07 = 7 * 60;

describe("isQuiet", () => {
  it("a period crossing midnight, one within a day, and none when start = end", () => {
    expect([isQuiet(23 * 60, Q22, Q07), isQuiet(6 * 60, Q22, Q07), isQuiet(12 * 60, Q22, Q07)]).toEqual([
      true,
      true,
      false,
    ]);
    expect([isQuiet(12 * 60, 9 * 60, 17 * 60), isQuiet(17 * 60, 9 * 60, 17 * 60)]).toEqual([true, false]);
    expect(isQuiet(100, 300, 300)).toBe(false);
  });
});

describe("quietUntil", () => {
  it("Europe/Berlin: a message at 23:30 local is held to 07:00 local the next morning", () => {
    // 2026-11-27 22:30Z = 23:30 in Berlin (UTC+1).
    const until = quietUntil(new Date("2026-11-27T22:30:00Z"), "Europe/Berlin", Q22, Q07);
    expect(until?.toISOString()).toBe("2026-11-28T06:00:00.000Z");
  });

  it("America/Los_Angeles: the same instant is 14:30 there, not quiet; 23:30 there is held to 07:00 there", () => {
    expect(quietUntil(new Date("2026-11-27T22:30:00Z"), "America/Los_Angeles", Q22, Q07)).toBeNull();
    // 2026-11-28 07:30Z = 23:30 on the 27th in Los Angeles (UTC-8); 07:00 there is 15:00Z.
    const until = quietUntil(new Date("2026-11-28T07:30:00Z"), "America/Los_Angeles", Q22, Q07);
    expect(until?.toISOString()).toBe("2026-11-28T15:00:00.000Z");
  });

  it("after midnight, inside the period: held to the same morning", () => {
    // 2026-11-28 01:00Z = 02:00 in Berlin.
    expect(quietUntil(new Date("2026-11-28T01:00:00Z"), "Europe/Berlin", Q22, Q07)?.toISOString()).toBe(
      "2026-11-28T06:00:00.000Z",
    );
  });

  it("across a clock change the end is still 07:00 on the wall clock (Berlin in October, Los Angeles in March)", () => {
    // Berlin leaves summer time on 2026-10-25 at 03:00 (UTC+2 → UTC+1): 23:00 on the 24th is 21:00Z, 07:00 on the 25th is 06:00Z.
    const berlin = quietUntil(new Date("2026-10-24T21:00:00Z"), "Europe/Berlin", Q22, Q07);
    expect(berlin?.toISOString()).toBe("2026-10-25T06:00:00.000Z");
    expect(wallClock(berlin!, "Europe/Berlin").minute).toBe(Q07);
    // Los Angeles begins summer time on 2026-03-08 at 02:00 (UTC-8 → UTC-7): 23:00 on the 7th is 07:00Z on the 8th,
    // 07:00 on the 8th is 14:00Z.
    const la = quietUntil(new Date("2026-03-08T07:00:00Z"), "America/Los_Angeles", Q22, Q07);
    expect(la?.toISOString()).toBe("2026-03-08T14:00:00.000Z");
  });

  it("an end the clock jumps over (spring forward) is the first minute after the jump; one it passes twice, the first", () => {
    // Los Angeles, 2026-03-08: 02:00 PST becomes 03:00 PDT. Quiet 22:00–02:30 from 22:00 on the 7th (06:00Z).
    expect(quietUntil(new Date("2026-03-08T06:00:00Z"), "America/Los_Angeles", Q22, 150)?.toISOString()).toBe(
      "2026-03-08T10:00:00.000Z",
    );
    // Berlin, 2026-03-29: 02:00 CET becomes 03:00 CEST. From 23:00 on the 28th (22:00Z).
    expect(quietUntil(new Date("2026-03-28T22:00:00Z"), "Europe/Berlin", Q22, 150)?.toISOString()).toBe(
      "2026-03-29T01:00:00.000Z",
    );
    // Los Angeles, 2026-11-01: 01:30 happens twice (PDT, then PST): the first, 08:30Z.
    expect(quietUntil(new Date("2026-11-01T05:00:00Z"), "America/Los_Angeles", Q22, 90)?.toISOString()).toBe(
      "2026-11-01T08:30:00.000Z",
    );
  });

  it("none set: never held", () => {
    expect(quietUntil(new Date(), "UTC", null, null)).toBeNull();
  });
});

describe("wallClock, hhmm, minuteOf", () => {
  it("reads the zone's date, minute and weekday; HH:MM both ways", () => {
    expect(wallClock(new Date("2026-11-28T23:30:00Z"), "Europe/Berlin")).toEqual({
      date: "2026-11-29",
      minute: 30,
      weekday: 0,
    });
    expect([hhmm(0), hhmm(22 * 60 + 5)]).toEqual(["00:00", "22:05"]);
    expect([minuteOf("07:30"), minuteOf("24:00"), minuteOf("7:30")]).toEqual([450, null, null]);
  });
});
