"use client";
// Sign out: POST /api/auth/logout (with X-CSRF, so it cannot be triggered from another site), then a full
// page load of /login, which drops every cached view of the signed-in user — or, after a single sign-on, of the
// provider's logout page (end_session_url), which ends the session there too and comes back to /login.
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { apiRequest, ApiRequestError } from "@/lib/portal/api-client";

// A full page load rather than router.push: nothing the signed-out user saw may stay in the router's or SWR's
// memory.
function goToLogin() {
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full load is the point
  window.location.assign("/login");
}

export function LogoutButton() {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const logout = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const answer = await apiRequest<{ data?: { end_session_url?: unknown } } | undefined>("/api/auth/logout", {
        method: "POST",
      });
      const endSession = answer?.data?.end_session_url;
      // The gateway built it from the provider's discovery: an http(s) URL, never anything a page could run.
      if (typeof endSession === "string" && /^https?:\/\//.test(endSession)) window.location.assign(endSession);
      else goToLogin();
    } catch (error) {
      // A 401 means the session had already ended: the goal is reached.
      if (error instanceof ApiRequestError && error.status === 401) {
        goToLogin();
        return;
      }
      setBusy(false);
      setFailure(error instanceof Error ? error.message : "Signing out did not work. Try again.");
    }
  };

  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        fullWidth
        loading={busy}
        loadingText="Signing out…"
        onClick={() => void logout()}
      >
        Sign out
      </Button>
      {failure ? <FormErrorBanner message={failure} /> : null}
    </>
  );
}
