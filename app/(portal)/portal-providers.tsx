"use client";
// What every portal page shares in the browser: the person's time zone, toasts, the step-up dialog (a fresh proof
// asked in place for a sensitive action), and SWR's defaults — the API fetcher, previous rows
// kept while the next view loads, and a signed-out person sent to sign in again.
import type { ReactNode } from "react";
import { SWRConfig, type SWRConfiguration } from "swr";

import { PersonTimeZoneProvider } from "@/components/person-time-zone";
import { StepUpProvider } from "@/components/portal/step-up-dialog";
import { ToastProvider } from "@/components/ui/toast";
import type { PersonTimeZone } from "@/lib/contract/time-zone";
import { ApiRequestError, loginUrlForCurrentPage, swrFetcher } from "@/lib/portal/api-client";

const WRONG_PROOF = new Set(["invalid_credentials", "invalid_second_factor"]);

const swrDefaults: SWRConfiguration = {
  fetcher: swrFetcher,
  keepPreviousData: true,
  // The server rendered the first view already (passed as `fallback`): fetching it again at once would only
  // repeat the upstream call. Later views and revalidation on focus still fetch.
  revalidateOnMount: false,
  // A 4xx will not fix itself; upstream hiccups (5xx) may.
  shouldRetryOnError: (error: unknown) =>
    !(error instanceof ApiRequestError) || error.status >= 500 || error.status === 0,
  errorRetryCount: 2,
  // A 401 means the session ended, except a wrong proof given to the step-up dialog (which says so itself).
  onError: (error: unknown) => {
    if (error instanceof ApiRequestError && error.status === 401 && !WRONG_PROOF.has(error.code))
      window.location.assign(loginUrlForCurrentPage());
  },
};

export function PortalProviders({ timeZone, children }: { timeZone: PersonTimeZone; children: ReactNode }) {
  return (
    <PersonTimeZoneProvider value={timeZone}>
      <ToastProvider>
        <SWRConfig value={swrDefaults}>
          <StepUpProvider>{children}</StepUpProvider>
        </SWRConfig>
      </ToastProvider>
    </PersonTimeZoneProvider>
  );
}
