"use client";
// A point in time in the reader's own locale and time zone (the one he picked, else his browser's:
// components/person-time-zone.tsx), e.g. "3 days ago" with the full date, time and zone in the tooltip, inside
// <time dateTime>. An absolute time always says its zone.
//
// Why a client component with a UTC fallback: the server knows neither the reader's locale nor his clock (the
// zone it knows, but a zone's short name is the locale's). The server (and the hydrating client) render the same stable text, "2025-01-31 12:00 UTC", and right
// after hydration React re-renders with the browser's values (useSyncExternalStore), so there is never a
// hydration mismatch and no per-element inline script (which a strict CSP would block). The cost is that the
// UTC text shows for the moment before hydration; it is correct, just not localised yet.
import {
  formatDate,
  formatDateTime,
  formatDateTimeShort,
  formatInZone,
  formatRelative,
  formatUtc,
  parseIso,
} from "../format";
import { usePersonTimeZone } from "../person-time-zone";
import { useNow } from "../use-browser";

export interface LocalTimeProps {
  /** ISO 8601 timestamp (UTC from the gateway); null/undefined renders `missing`. */
  iso: string | null | undefined;
  /**
   * "relative" (default): "3 days ago"; "both": "18 Nov, 10:00 CET (3 days ago)" (with the year when not this
   * one); "short": "18 Nov, 10:00 CET" (a table's time with "3 days ago" on a line of its own, whose width does not
   * grow as the rows age); "datetime": full local date, time and zone; "date": local date. The full one is always in
   * the tooltip.
   */
  display?: "relative" | "both" | "short" | "datetime" | "date";
  /** Text for a missing time, e.g. "Not generated yet". */
  missing?: string;
  className?: string;
}

export function LocalTime({ iso, display = "relative", missing = "Unknown", className }: LocalTimeProps) {
  const now = useNow();
  const { zone } = usePersonTimeZone();
  if (!iso || !parseIso(iso)) return <span className={className}>{iso || missing}</span>;

  if (now === null) {
    return (
      <time dateTime={iso} title={formatUtc(iso)} className={className}>
        {formatUtc(iso)}
      </time>
    );
  }
  const full = formatDateTime(iso, undefined, zone);
  const text = {
    relative: () => formatRelative(iso, now),
    both: () => `${formatDateTimeShort(iso, undefined, zone, now)} (${formatRelative(iso, now)})`,
    short: () => formatDateTimeShort(iso, undefined, zone, now),
    datetime: () => full,
    date: () => formatDate(iso, undefined, zone),
  }[display]();
  return (
    <time dateTime={iso} title={full} className={className}>
      {text}
    </time>
  );
}

/**
 * A time on the wall clock of a named zone, with the name: "Tue, 1 Dec 2026, 09:00 Europe/Berlin" (a schedule's
 * next run, which belongs to its zone rather than the reader's). UTC until hydration, as LocalTime.
 */
export function ZonedTime({ iso, zone }: { iso: string; zone: string }) {
  const now = useNow();
  return <time dateTime={iso}>{now === null ? formatUtc(iso) : formatInZone(iso, zone)}</time>;
}
