// Quiet hours in a person's time zone, DST-safe with Intl alone: a person's quiet period is minutes of the day on
// his wall clock ("22:00"–"07:00" crosses midnight); a message that arrives inside it is held until its end. On the
// day a clock goes forward or back the end is still the wall-clock minute asked for (the first minute after the
// jump when the clock skips it; the first time when it passes it twice).

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      weekday: "short",
    });
    formatters.set(zone, f);
  }
  return f;
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** The wall clock in `zone` at `at`: its date, minute of the day and weekday (0 Sunday … 6 Saturday). */
export function wallClock(at: Date, zone: string): { date: string; minute: number; weekday: number } {
  const parts = Object.fromEntries(
    formatter(zone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    minute: Number(parts.hour) * 60 + Number(parts.minute),
    weekday: WEEKDAYS.indexOf(parts.weekday ?? ""),
  };
}

/** Whether `minute` of the day is inside [start, end) (crossing midnight when end < start; empty when equal). */
export function isQuiet(minute: number, start: number, end: number): boolean {
  if (start === end) return false;
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

/**
 * When the quiet period `at` falls in ends (the next instant the wall clock in `zone` reads `end`), or null when
 * `at` is not quiet. Quiet hours are never longer than a day, so the end is less than 24 hours ahead.
 */
export function quietUntil(at: Date, zone: string, start: number | null, end: number | null): Date | null {
  if (start === null || end === null) return null;
  const now = wallClock(at, zone);
  if (!isQuiet(now.minute, start, end)) return null;
  const atMinute = Math.floor(at.getTime() / 60_000) * 60_000;
  let candidate = atMinute + ((end - now.minute + 1440) % 1440 || 1440) * 60_000;
  /** How far the wall clock at `t` reads past `end` (minutes; negative: before it). */
  const past = (t: number): number => {
    const d = wallClock(new Date(t), zone).minute - end;
    return d > 720 ? d - 1440 : d < -720 ? d + 1440 : d;
  };
  // A clock change between now and then moves the wall clock: step back or on by the difference.
  for (let i = 0; i < 3 && past(candidate) !== 0; i++) candidate -= past(candidate) * 60_000;
  if (past(candidate) !== 0) {
    // The end falls in a gap (the clock jumps over it, spring forward): the first minute after the jump.
    for (let i = 0; i < 180 && past(candidate) < 0; i++) candidate += 60_000;
    for (let i = 0; i < 180 && past(candidate - 60_000) >= 0; i++) candidate -= 60_000;
  }
  return new Date(candidate);
}

/** "HH:MM" of a minute of the day, and back (null for a string that is not one). */
export function hhmm(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
}

export function minuteOf(text: string): number | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}
