"use client";
// A failure nothing closer caught (a bug, or the store being down): say so plainly and offer to try again.
// The digest lets an operator find the server's log line; the error's text is not shown (it may hold details).
import { StandalonePage } from "@/components/shell/standalone-page";
import { Button } from "@/components/ui/button";
import { ButtonLink } from "@/components/ui/button-link";

export default function RootError({ error, retry }: { error: unknown; retry: () => void }) {
  const digest =
    error instanceof Error && "digest" in error && typeof error.digest === "string" ? error.digest : undefined;
  return (
    <StandalonePage>
      <h1>Something went wrong</h1>
      <p>Gatehouse could not show this page. Try again; if it keeps failing, tell an administrator.</p>
      {digest ? (
        <p>
          Reference: <code>{digest}</code>
        </p>
      ) : null}
      <p>
        <Button variant="primary" onClick={() => retry()}>
          Try again
        </Button>{" "}
        <ButtonLink href="/">Go to the dashboard</ButtonLink>
      </p>
    </StandalonePage>
  );
}
