// The person's time zone: the one he picked, else his browser's (a cookie, taken only when it names a zone), else
// UTC until the browser has said.
import { describe, expect, it } from "vitest";

import { personTimeZone } from "@/lib/auth/time-zone";

describe("personTimeZone", () => {
  it("takes the zone he picked over his browser's", () => {
    expect(personTimeZone("Asia/Tokyo", "Europe/Berlin")).toEqual({ zone: "Asia/Tokyo", source: "picked" });
  });

  it("takes the browser's zone while he has picked none", () => {
    expect(personTimeZone(null, "America/Los_Angeles")).toEqual({ zone: "America/Los_Angeles", source: "browser" });
  });

  it("refuses a cookie that names no zone, and answers UTC", () => {
    for (const cookie of [undefined, "", "Mars/Olympus", "+01:00", "../../etc/passwd", "x".repeat(200)])
      expect(personTimeZone(null, cookie)).toEqual({ zone: "UTC", source: "default" });
  });
});
