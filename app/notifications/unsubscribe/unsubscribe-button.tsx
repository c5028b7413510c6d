"use client";
// The one button of the unsubscribe page: POSTs the token, then says what was stopped (or why not).
import { Button } from "@/components/ui/button";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { useApiAction } from "@/components/use-api-form";

import { useState } from "react";

export function UnsubscribeButton({ token }: { token: string }) {
  const { busy, send } = useApiAction();
  const [done, setDone] = useState<string | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  if (done) return <p role="status">{done}</p>;
  return (
    <>
      <FormErrorBanner title="Not unsubscribed" message={refused ?? undefined} />
      <Button
        variant="primary"
        loading={busy}
        loadingText="Unsubscribing…"
        onClick={() =>
          void send<{ data: { message: string } }>(
            `/api/notifications/unsubscribe?token=${encodeURIComponent(token)}`,
            {
              method: "POST",
              onRefused: (error) => setRefused(error.message),
            },
          ).then((answer) => {
            if (answer) setDone(answer.data.message);
          })
        }
      >
        Unsubscribe
      </Button>
    </>
  );
}
