"use client";
// "Your time zone" on the account page: the zone every time, "today" and the history's days are shown in. Until
// the person picks one, his browser's (components/person-time-zone.tsx); he can go back to it.
import { useRouter } from "next/navigation";
import type { FormEvent } from "react";

import { usePersonTimeZone } from "@/components/person-time-zone";
import { Button } from "@/components/ui/button";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { TIME_ZONE_NOT_FOUND, TimeZoneField } from "@/components/ui/time-zone-field";
import { useToast } from "@/components/ui/toast";
import { useApiForm } from "@/components/use-api-form";
import { resolveTimeZone } from "@/lib/contract/time-zone";

import formStyles from "../forms.module.css";

const ME = "/api/auth/me";

export function TimeZoneForm() {
  const { zone, source } = usePersonTimeZone();
  const router = useRouter();
  const toast = useToast();
  const { busy, fields, failure, check, send } = useApiForm({ fieldNames: ["time_zone"] });

  const save = async (timeZone: string | null) => {
    if ((await send(ME, { method: "PATCH", body: { time_zone: timeZone } })) === false) return;
    toast.success(timeZone ? `Time zone saved: ${timeZone}.` : "Time zone: your browser's.");
    router.refresh();
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const field = event.currentTarget.elements.namedItem("time_zone") as HTMLInputElement;
    const picked = resolveTimeZone(field.value);
    if (!check({ time_zone: picked ? undefined : TIME_ZONE_NOT_FOUND })) return;
    field.value = picked!;
    await save(picked);
  };

  return (
    <form noValidate className={formStyles.form} onSubmit={(event) => void submit(event)}>
      <FormErrorBanner title="The time zone was not saved" message={failure?.message} requestId={failure?.requestId} />
      <p>
        Times, &ldquo;today&rdquo; and the history&apos;s days are shown in{" "}
        {source === "picked" ? "the zone you picked" : "your browser's zone"}: <strong>{zone}</strong>.
      </p>
      {/* A new zone from the server (saved, or the browser's found) starts the field afresh. */}
      <TimeZoneField key={zone} name="time_zone" defaultValue={zone} error={fields.time_zone} />
      <div className={formStyles.buttons}>
        <Button type="submit" variant="primary" loading={busy} loadingText="Saving…">
          Save time zone
        </Button>
        {source === "picked" ? (
          <Button variant="secondary" disabled={busy} onClick={() => void save(null)}>
            Use my browser&apos;s zone
          </Button>
        ) : null}
      </div>
    </form>
  );
}
