"use client";
// A failure inside the portal that no page caught (a bug, or the accounts store failing): the shell and its
// navigation stay, the content says what happened and offers to try again. Upstream failures never get here:
// pages show those in place (lib/portal/failures.ts).
import { Button } from "@/components/ui/button";
import { ButtonLink } from "@/components/ui/button-link";
import { ErrorState } from "@/components/ui/error-state";
import { PageHeader } from "@/components/ui/page-header";

export default function PortalError({ error, retry }: { error: unknown; retry: () => void }) {
  const digest =
    error instanceof Error && "digest" in error && typeof error.digest === "string" ? error.digest : undefined;
  return (
    <>
      <PageHeader title="Something went wrong" />
      <ErrorState
        title="Gatehouse could not show this page"
        requestId={digest}
        action={
          <>
            <Button variant="primary" onClick={() => retry()}>
              Try again
            </Button>
            <ButtonLink href="/">Go to the dashboard</ButtonLink>
          </>
        }
      >
        Try again in a moment. If it keeps failing, tell an administrator and give them the request id below.
      </ErrorState>
    </>
  );
}
