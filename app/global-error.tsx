"use client";
// The last resort, when even the root layout failed: it replaces the whole document, so it brings its own
// <html> and the global styles (colours follow the system theme).
import "./globals.css";

import { StandalonePage } from "@/components/shell/standalone-page";
import { Button } from "@/components/ui/button";

export default function GlobalError({ retry }: { error: unknown; retry: () => void }) {
  return (
    <html lang="en">
      <head>
        <title>Something went wrong · Gatehouse</title>
      </head>
      <body>
        <StandalonePage>
          <h1>Something went wrong</h1>
          <p>Gatehouse could not show this page. Try again in a moment; if it keeps failing, tell an administrator.</p>
          <Button variant="primary" onClick={() => retry()}>
            Try again
          </Button>
        </StandalonePage>
      </body>
    </html>
  );
}
