"use client";
// The person's time zone in the browser: the server's answer (lib/auth/time-zone.ts), so that server and browser
// render the same, and the browser's own zone told to the server. While he has not picked one, the shell sets the
// cookie to the browser's zone and, when the pages were rendered for another, renders them again: "today" and the
// history's days are then his days from the first page on.
import { useRouter } from "next/navigation";
import { createContext, useContext, useEffect, type ReactNode } from "react";

import { BROWSER_TIME_ZONE_COOKIE, type PersonTimeZone } from "@/lib/contract/time-zone";

const TimeZoneContext = createContext<PersonTimeZone>({ zone: "UTC", source: "default" });

/** The person's zone: what every time and day on the page is shown in. */
export function usePersonTimeZone(): PersonTimeZone {
  return useContext(TimeZoneContext);
}

/** The browser's zone (IANA), or UTC where the runtime does not say. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

const YEAR_SECONDS = 365 * 24 * 3600;

export function PersonTimeZoneProvider({ value, children }: { value: PersonTimeZone; children: ReactNode }) {
  const router = useRouter();
  useEffect(() => {
    if (value.source === "picked") return;
    const zone = browserTimeZone();
    const cookie = `${BROWSER_TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}`;
    // Only when the cookie changes: a zone the server does not take would otherwise render the page forever.
    if (zone === value.zone || document.cookie.split("; ").includes(cookie)) return;
    document.cookie = `${cookie}; path=/; max-age=${YEAR_SECONDS}; samesite=lax`;
    router.refresh();
  }, [value.source, value.zone, router]);
  return <TimeZoneContext.Provider value={value}>{children}</TimeZoneContext.Provider>;
}
