// Time zones by IANA name: which names are valid, a zone found from what a person typed, a day's first moment in
// a zone (clock changes included), the day a moment falls on, and ISO times with a zone's offset.
import { describe, expect, it } from "vitest";

import {
  dayIn,
  endOfDayIn,
  isIanaTimeZone,
  isoInZone,
  resolveTimeZone,
  startOfDayIn,
  timeZoneNames,
} from "@/lib/contract/time-zone";

describe("isIanaTimeZone", () => {
  it("knows IANA names and not offsets or paths", () => {
    expect(["Europe/Berlin", "America/Argentina/Buenos_Aires", "UTC", "Etc/GMT+5"].map(isIanaTimeZone)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(["+01:00", "Mars/Olympus", "../etc/passwd", ""].map(isIanaTimeZone)).toEqual([false, false, false, false]);
  });
});

describe("resolveTimeZone", () => {
  it("finds the zone by its name in any case, or by its one city", () => {
    expect(resolveTimeZone("europe/berlin")).toBe("Europe/Berlin");
    expect(resolveTimeZone(" Berlin ")).toBe("Europe/Berlin");
    expect(resolveTimeZone("new york")).toBe("America/New_York");
    expect(resolveTimeZone("utc")).toBe("UTC");
  });

  it("gives nothing for what several zones or none hold", () => {
    expect(resolveTimeZone("Europe")).toBeNull();
    expect(resolveTimeZone("Olympus")).toBeNull();
    expect(resolveTimeZone("")).toBeNull();
  });

  it("offers UTC first, then the runtime's names", () => {
    const names = timeZoneNames();
    expect(names[0]).toBe("UTC");
    expect(names).toContain("Asia/Tokyo");
    expect(names.filter((name) => name === "UTC")).toHaveLength(1);
  });
});

describe("a day in a zone", () => {
  it("starts at the zone's midnight", () => {
    expect(startOfDayIn("2026-11-28", "America/Los_Angeles").toISOString()).toBe("2026-11-28T08:00:00.000Z");
    expect(startOfDayIn("2026-11-28", "Asia/Kolkata").toISOString()).toBe("2026-11-27T18:30:00.000Z");
    expect(startOfDayIn("2026-11-28", "UTC").toISOString()).toBe("2026-11-28T00:00:00.000Z");
  });

  it("lasts 23 or 25 hours on a clock change, and starts at 01:00 where midnight is skipped", () => {
    expect(
      endOfDayIn("2026-03-29", "Europe/Berlin").getTime() - startOfDayIn("2026-03-29", "Europe/Berlin").getTime(),
    ).toBe(23 * 3_600_000);
    expect(
      endOfDayIn("2026-10-25", "Europe/Berlin").getTime() - startOfDayIn("2026-10-25", "Europe/Berlin").getTime(),
    ).toBe(25 * 3_600_000);
    // Chile moves its clocks from 24:00 to 01:00 on the first Sunday of September.
    expect(startOfDayIn("2026-09-06", "America/Santiago").toISOString()).toBe("2026-09-06T04:00:00.000Z");
  });

  it("is the day a moment falls on there", () => {
    expect(dayIn(new Date("2026-11-28T03:00:00Z"), "America/Los_Angeles")).toBe("2026-11-27");
    expect(dayIn(new Date("2026-11-28T23:30:00Z"), "Asia/Tokyo")).toBe("2026-11-29");
  });
});

describe("isoInZone", () => {
  it("writes the same instant with the zone's offset", () => {
    expect(isoInZone(new Date("2026-11-28T01:12:05.250Z"), "America/Los_Angeles")).toBe(
      "2026-11-27T17:12:05.250-08:00",
    );
    expect(isoInZone(new Date("2026-11-28T01:12:05.000Z"), "Asia/Kolkata")).toBe("2026-11-28T06:42:05.000+05:30");
    expect(isoInZone(new Date("2026-11-28T01:12:05.000Z"), "UTC")).toBe("2026-11-28T01:12:05.000+00:00");
  });
});
