import type { Metadata } from "next";

import { StandalonePage } from "@/components/shell/standalone-page";
import { ButtonLink } from "@/components/ui/button-link";

export const metadata: Metadata = { title: "Page not found" };

export default function NotFound() {
  return (
    <StandalonePage>
      <h1>Page not found</h1>
      <p>There is no page at this address. It may have moved, or the link may be mistyped.</p>
      <ButtonLink href="/" variant="primary">
        Go to the dashboard
      </ButtonLink>
    </StandalonePage>
  );
}
