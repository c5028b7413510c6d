// Formatting shared by the components and usable on its own (tables, CSV, tests). Every function takes the
// locale, time zone and "now" as arguments: the components pass the browser's, so the same call is
// deterministic in tests and on the server.

export type Locale = string | undefined; // undefined: the runtime's default (the browser's in a component)

/** A Date from an ISO 8601 string, or null when it does not parse. */
export function parseIso(iso: string | null | undefined): Date | null {
  if (typeof iso !== "string" || iso === "") return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * The server-side (and pre-hydration) rendering of a time: UTC, minute precision, the same everywhere, e.g.
 * "2025-01-31 12:00 UTC". Invalid input comes back unchanged so nothing is silently hidden.
 */
export function formatUtc(iso: string): string {
  const date = parseIso(iso);
  if (!date) return iso;
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** Full local date and time, e.g. "31 January 2025 at 13:00:00 CET" (wording depends on the locale). */
export function formatDateTime(iso: string, locale?: Locale, timeZone?: string): string {
  const date = parseIso(iso);
  if (!date) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "long", timeZone }).format(date);
}

const SHORT_DATE_TIME = {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
} as const;

/**
 * Short local date and time with the zone's short name, e.g. "31 Jan 2025, 13:00 CET"; given `now`, without the
 * year when it is this year ("31 Jan, 13:00 CET"), so that a time with its zone still fits a phone's line.
 */
export function formatDateTimeShort(iso: string, locale?: Locale, timeZone?: string, now?: number): string {
  const date = parseIso(iso);
  if (!date) return iso;
  const yearOf = (at: Date | number) => new Intl.DateTimeFormat("en", { year: "numeric", timeZone }).format(at);
  const { year, ...withoutYear } = SHORT_DATE_TIME;
  const fields = now !== undefined && yearOf(date) === yearOf(now) ? withoutYear : { ...withoutYear, year };
  return new Intl.DateTimeFormat(locale, { ...fields, timeZoneName: "short", timeZone }).format(date);
}

/**
 * A date and time on the wall clock of a named zone, with the zone's IANA name, e.g. "Tue, 1 Dec 2026, 09:00
 * Europe/Berlin": for a time that belongs to a place (a schedule's next run), where "CET" would not say which.
 */
export function formatInZone(iso: string, timeZone: string, locale?: Locale): string {
  const date = parseIso(iso);
  if (!date) return iso;
  const text = new Intl.DateTimeFormat(locale, { weekday: "short", ...SHORT_DATE_TIME, timeZone }).format(date);
  return `${text} ${timeZone}`;
}

/** Local date only, e.g. "31 Jan 2025". */
export function formatDate(iso: string, locale?: Locale, timeZone?: string): string {
  const date = parseIso(iso);
  if (!date) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone }).format(date);
}

const RELATIVE_UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
];

/**
 * Relative time from `now`, e.g. "3 days ago", "in 2 hours", "now". Picks the largest unit that fits and rounds
 * toward zero, so "47 hours ago" reads "yesterday" rather than "in 2 days".
 */
export function formatRelative(iso: string, now: number, locale?: Locale): string {
  const date = parseIso(iso);
  if (!date) return iso;
  const seconds = (date.getTime() - now) / 1000;
  const format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  const magnitude = Math.abs(seconds);
  for (const [unit, size] of RELATIVE_UNITS) {
    if (magnitude >= size || unit === "second") {
      const value = Math.trunc(seconds / size);
      // Under 45 seconds reads "now" (numeric: "auto" words 0 seconds so): the clock behind it ticks coarsely.
      return format.format(unit === "second" && Math.abs(value) < 45 ? 0 : value, unit);
    }
  }
  return format.format(0, "second");
}

/**
 * Money in the locale's way, e.g. "$1,234.50" or "1.234,50 €". An unknown currency code falls back to
 * "1,234.50 XYZ" instead of throwing.
 */
export function formatMoney(amount: number, currency: string, locale?: Locale): string {
  const code = currency.trim().toUpperCase();
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency: code }).format(amount);
  } catch {
    const number = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount);
    return code === "" ? number : `${number} ${code}`;
  }
}

/** The server-side rendering of money: no locale, two decimals, the code after, e.g. "1234.50 USD". */
export function formatMoneyPlain(amount: number, currency: string): string {
  const code = currency.trim().toUpperCase();
  const number = Number.isFinite(amount) ? amount.toFixed(2) : String(amount);
  return code === "" ? number : `${number} ${code}`;
}

export type SupportState = { kind: "active"; until: string } | { kind: "expired"; until: string } | { kind: "none" };

/** Whether a purchase's support is active at `now`, from its optional `supported_until`. */
export function supportState(supportedUntil: string | null | undefined, now: number): SupportState {
  const date = parseIso(supportedUntil);
  if (!date || !supportedUntil) return { kind: "none" };
  return date.getTime() > now ? { kind: "active", until: supportedUntil } : { kind: "expired", until: supportedUntil };
}
