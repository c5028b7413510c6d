// When a schedule runs next, in its project's time zone (IANA names, Luxon's zone data from the runtime's Intl).
// Daylight-saving time: a local time that does not exist that day (the hour skipped in spring) runs at the same
// wall-clock distance after the jump (02:30 → 03:30); a local time that happens twice (autumn) runs once, at the
// second of the two (Luxon takes the later offset), so once a day all the same.
import { DateTime, IANAZone } from "luxon";

import type { ScheduleFrequency } from "@/lib/contract/values";

export interface ScheduleTiming {
  frequency: ScheduleFrequency;
  /** ISO weekday, 1 Monday … 7 Sunday; weekly only. */
  weekday: number | null;
  /** HH:MM, local. */
  time: string;
  time_zone: string;
}

/** Whether `name` is an IANA time-zone name this runtime knows (UTC included). */
export function isTimeZone(name: string): boolean {
  return IANAZone.isValidZone(name);
}

/** The first run strictly after `after`. */
export function nextRunAt(timing: ScheduleTiming, after: Date): Date {
  if (!isTimeZone(timing.time_zone)) throw new RangeError(`unknown time zone ${timing.time_zone}`);
  const [hour = 0, minute = 0] = timing.time.split(":").map(Number);
  const start = DateTime.fromJSDate(after, { zone: timing.time_zone });
  const at = (date: DateTime) =>
    DateTime.fromObject(
      { year: date.year, month: date.month, day: date.day, hour, minute },
      { zone: timing.time_zone },
    );
  let day = start.startOf("day");
  if (timing.frequency === "weekly") day = day.plus({ days: ((timing.weekday ?? 1) - day.weekday + 7) % 7 });
  const step = timing.frequency === "weekly" ? 7 : 1;
  let candidate = at(day);
  while (candidate.toMillis() <= after.getTime()) {
    day = day.plus({ days: step });
    candidate = at(day);
  }
  return candidate.toJSDate();
}

/** "Daily at 06:00 (Europe/Berlin)", "Mondays at 06:00 (UTC)". */
export function describeTiming(timing: ScheduleTiming): string {
  const names = ["Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays"];
  const when = timing.frequency === "daily" ? "Daily" : (names[(timing.weekday ?? 1) - 1] ?? "Weekly");
  return `${when} at ${timing.time} (${timing.time_zone})`;
}
