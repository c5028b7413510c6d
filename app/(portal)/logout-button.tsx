"use client";
// Sign out: POST /api/auth/logout (with X-CSRF, so it cannot be triggered from another site), then a full
// page load of /login, which drops every cached view of the signed-in user.
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
      await apiRequest("/api/auth/logout", { method: "POST" });
      goToLogin();
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
      <Button variant="secondary" size="sm" fullWidth loading={busy} loadingText="Signing out…" onClick={() => void logout()}>
        Sign out
      </Button>
      {failure ? <FormErrorBanner message={failure} /> : null}
    </>
  );
}
