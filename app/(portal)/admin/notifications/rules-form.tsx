"use client";
// What every notification waits for (GET/PUT /api/admin/notifications/settings): the results a report's change
// must last, the minutes an upstream must be down, the merge window for repeats.
import { type FormEvent } from "react";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { TextField } from "@/components/ui/text-field";
import { useToast } from "@/components/ui/toast";
import { useApiForm } from "@/components/use-api-form";
import type { NotificationSettingsView } from "@/lib/contract/notification-subscriptions";

import formStyles from "../../forms.module.css";

const FIELDS = ["results_to_last", "down_minutes", "merge_window_minutes"] as const;

export function RulesForm({ settings }: { settings: NotificationSettingsView }) {
  const { busy, fields, failure, send } = useApiForm({ fieldNames: FIELDS });
  const toast = useToast();
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = Object.fromEntries(FIELDS.map((name) => [name, Number(form.get(name))]));
    if ((await send("/api/admin/notifications/settings", { method: "PUT", body })) !== false)
      toast.success("Saved what the notifications wait for.");
  };
  return (
    <Card title="What notifications wait for" asSection>
      <form noValidate className={formStyles.form} onSubmit={(event) => void submit(event)}>
        <FormErrorBanner
          title="The settings were not saved"
          message={failure?.message}
          requestId={failure?.requestId}
        />
        <div className={formStyles.inline}>
          <TextField
            type="number"
            name="results_to_last"
            label="Results a report's change must last"
            hint="2: a page that flaps between good and bad sends nothing"
            min={1}
            max={20}
            defaultValue={String(settings.results_to_last)}
            error={fields.results_to_last}
          />
          <TextField
            type="number"
            name="down_minutes"
            label="Minutes an upstream must be down"
            min={0}
            max={1440}
            defaultValue={String(settings.down_minutes)}
            error={fields.down_minutes}
          />
          <TextField
            type="number"
            name="merge_window_minutes"
            label="Minutes repeats wait to merge"
            hint="0: every message goes at once"
            min={0}
            max={60}
            defaultValue={String(settings.merge_window_minutes)}
            error={fields.merge_window_minutes}
          />
        </div>
        <div className={formStyles.buttons}>
          <Button type="submit" variant="primary" loading={busy} loadingText="Saving…">
            Save
          </Button>
        </div>
      </form>
    </Card>
  );
}
