// Time zones as the portal names them (IANA names: "Europe/Berlin", "UTC"), for the server and the browser alike:
// which names are valid, a name found from what a person typed ("Berlin"), and a calendar day in a zone (the
// history's from/to, "today"). Intl alone, no zone library: this module is in the browser's bundle too.
import { z } from "zod";

/** A person's zone, and where it comes from: picked on the account page, his browser's, or UTC until it said. */
export interface PersonTimeZone {
  /** An IANA name. */
  zone: string;
  source: "picked" | "browser" | "default";
}

/** The cookie the portal's shell sets to the browser's zone, for a person who has not picked one. */
export const BROWSER_TIME_ZONE_COOKIE = "gatehouse_tz";

/** The shape of an IANA zone name ("UTC", "Europe/Berlin", "America/Argentina/Buenos_Aires", "Etc/GMT+5"). */
const ZONE_NAME = /^[A-Z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/** An IANA zone name the runtime knows ("Europe/Berlin", "UTC"); offsets such as "+01:00" are not names. */
export function isIanaTimeZone(name: string): boolean {
  if (name.length > 64 || !ZONE_NAME.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const TimeZoneSchema = z
  .string({ error: "must be an IANA time zone name such as Europe/Berlin" })
  .max(64, "must be at most 64 characters")
  // The shape is what the API document can say; that the runtime knows the zone, its description.
  .regex(ZONE_NAME, "must be an IANA time zone name such as Europe/Berlin, America/New_York or UTC")
  .refine(isIanaTimeZone, "must be an IANA time zone name such as Europe/Berlin, America/New_York or UTC")
  .describe("An IANA time zone name the server knows, e.g. Europe/Berlin");

/** Every zone name the runtime offers, UTC first: the choices of a zone picker. */
export function timeZoneNames(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: "timeZone") => string[] };
  return ["UTC", ...(intl.supportedValuesOf?.("timeZone") ?? []).filter((name) => name !== "UTC")];
}

const words = (name: string) => name.toLowerCase().replace(/_/g, " ");

/**
 * The zone a person meant: the name itself in any letter case, or the one zone whose city is what he typed
 * ("berlin", "New York"), or the one zone whose name holds it. Null when none or several fit.
 */
export function resolveTimeZone(text: string, names: readonly string[] = timeZoneNames()): string | null {
  const typed = words(text.trim());
  if (typed === "") return null;
  const exact = names.find((name) => words(name) === typed);
  if (exact) return exact;
  const byCity = names.filter((name) => words(name.slice(name.lastIndexOf("/") + 1)) === typed);
  if (byCity.length === 1) return byCity[0]!;
  const holding = names.filter((name) => words(name).includes(typed));
  return holding.length === 1 ? holding[0]! : null;
}

const partsFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock in `zone` at `at`, read as if it were UTC: its difference from `at` is the zone's offset. */
function wallClock(at: number, zone: string): number {
  let format = partsFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    partsFormats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, Number(part.value)]));
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

/** The calendar day, YYYY-MM-DD, that `at` falls on in `zone`. */
export function dayIn(at: Date, zone: string): string {
  return new Date(wallClock(at.getTime(), zone)).toISOString().slice(0, 10);
}

/**
 * The first moment of the day YYYY-MM-DD in `zone`: its midnight, found from the zone's offset near it (asked
 * twice, for a day whose offset changes overnight). Where a clock change skips midnight, the first moment after.
 */
export function startOfDayIn(day: string, zone: string): Date {
  const midnight = Date.parse(`${day}T00:00:00Z`);
  let at = midnight - (wallClock(midnight, zone) - midnight);
  at = midnight - (wallClock(at, zone) - at);
  // A skipped midnight (clocks go from 23:59 to 01:00) lands an hour early, on the day before.
  if (dayIn(new Date(at), zone) < day) at += 3_600_000;
  return new Date(at);
}

/** The first moment of the day after YYYY-MM-DD in `zone`: a day's end, exclusive (23 or 25 hours on a change). */
export function endOfDayIn(day: string, zone: string): Date {
  const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return startOfDayIn(next, zone);
}

/** ISO 8601 with the offset `zone` has at `at`: "2026-11-27T17:12:05.000-08:00" (the same instant as its UTC form). */
export function isoInZone(at: Date, zone: string): string {
  const ms = at.getTime();
  const whole = Math.floor(ms / 1000) * 1000;
  const offset = Math.round((wallClock(whole, zone) - whole) / 60_000);
  const local = new Date(ms + offset * 60_000).toISOString().slice(0, 23);
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, "0");
  return `${local}${offset < 0 ? "-" : "+"}${hours}:${String(Math.abs(offset) % 60).padStart(2, "0")}`;
}
