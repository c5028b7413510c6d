// The person's time zone, the one home every server-rendered page asks: the zone he picked on the account page,
// else his browser's (the cookie components/person-time-zone.tsx sets), else UTC
// until the browser has said. A cookie is whatever a client sent: only a name the runtime knows is taken.
import "server-only";

import { cookies } from "next/headers";
import { cache } from "react";

import { BROWSER_TIME_ZONE_COOKIE, isIanaTimeZone, type PersonTimeZone } from "@/lib/contract/time-zone";

import { getCurrentUser } from "./current-user";

/** The zone from what the store and the cookie say (pure, for tests). */
export function personTimeZone(picked: string | null | undefined, browserCookie: string | undefined): PersonTimeZone {
  if (picked && isIanaTimeZone(picked)) return { zone: picked, source: "picked" };
  if (browserCookie && isIanaTimeZone(browserCookie)) return { zone: browserCookie, source: "browser" };
  return { zone: "UTC", source: "default" };
}

/** The signed-in person's zone, once per request. */
export const getPersonTimeZone = cache(async (): Promise<PersonTimeZone> => {
  const [user, cookieStore] = await Promise.all([getCurrentUser(), cookies()]);
  return personTimeZone(user?.timeZone, cookieStore.get(BROWSER_TIME_ZONE_COOKIE)?.value);
});
