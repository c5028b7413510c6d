// /notifications/unsubscribe?token=…: where an e-mail's unsubscribe link opens (no sign-in: the sealed token is the
// proof). It says what the link stops and offers the one button, which POSTs to /api/notifications/unsubscribe as
// a mail client's one click does (RFC 8058); a link altered, cut short or stale says so and what to do instead.
import type { Metadata } from "next";

import { StandalonePage } from "@/components/shell/standalone-page";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { getServerContext } from "@/lib/auth/access";
import { openUnsubscribeToken } from "@/lib/notifications/unsubscribe";

import { UnsubscribeButton } from "./unsubscribe-button";

export const metadata: Metadata = { title: "Unsubscribe" };

type Query = Record<string, string | string[] | undefined>;

export default async function UnsubscribePage({ searchParams }: { searchParams: Promise<Query> }) {
  const { token } = await searchParams;
  const { config } = await getServerContext();
  const check =
    typeof token === "string" && token !== ""
      ? openUnsubscribeToken(token, config.dataKey)
      : ({ ok: false, reason: "This page needs the link of an e-mail from Gatehouse, as it came." } as const);
  return (
    <StandalonePage>
      <h1>Unsubscribe</h1>
      {check.ok && typeof token === "string" ? (
        <>
          <p>
            {check.scope === "all"
              ? "Stop every e-mail Gatehouse sends you?"
              : check.scope === "digest"
                ? "Stop your weekly digest? Your other notifications stay as they are."
                : `Stop the e-mail about ${check.scope}? Your other notifications stay as they are.`}
          </p>
          <UnsubscribeButton token={token} />
        </>
      ) : (
        <FormErrorBanner title="This link does not work" message={check.ok ? undefined : check.reason} />
      )}
    </StandalonePage>
  );
}
