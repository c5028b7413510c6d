// Rendered when a page calls forbidden(): the user is signed in, but the role may not use this page.
import type { Metadata } from "next";

import { StandalonePage } from "@/components/shell/standalone-page";
import { ButtonLink } from "@/components/ui/button-link";

export const metadata: Metadata = { title: "Not allowed" };

export default function Forbidden() {
  return (
    <StandalonePage>
      <h1>You may not open this page</h1>
      <p>
        Your role does not include this part of Gatehouse. If you need it, ask an administrator to change your role.
      </p>
      <ButtonLink href="/" variant="primary">
        Go to the dashboard
      </ButtonLink>
    </StandalonePage>
  );
}
