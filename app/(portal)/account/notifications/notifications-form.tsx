"use client";
// The person's notifications in one form: the topics his role allows (a report topic for every project or the
// projects he chooses, and an alert rule; what the form cannot show is kept as it is), e-mail on or off, quiet
// hours, the weekly digest. Saved with the house's form hook: the subscriptions, then the preferences.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";

import {
  splitSubscriptions,
  subscriptionsFromForm,
  TopicChecklist,
  type TopicChoice,
} from "@/components/portal/topic-checklist";
import { Button } from "@/components/ui/button";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { SelectField } from "@/components/ui/select-field";
import { TextField } from "@/components/ui/text-field";
import { useToast } from "@/components/ui/toast";
import { useApiForm } from "@/components/use-api-form";
import type { NotificationPreferences, NotificationSubscription } from "@/lib/contract/notification-subscriptions";

import formStyles from "../../forms.module.css";

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const HOURS = Array.from({ length: 24 }, (_, hour) => ({
  value: String(hour),
  label: `${String(hour).padStart(2, "0")}:00`,
}));
const FIELDS = ["quiet_hours.start", "quiet_hours.end", "digest.day", "digest.hour", "subscriptions"] as const;

interface Props {
  topics: TopicChoice[];
  subscriptions: NotificationSubscription[];
  preferences: NotificationPreferences;
  /** The projects a report topic may be narrowed to. */
  projects: string[];
}

export function NotificationsForm({ topics, subscriptions, preferences, projects }: Props) {
  const router = useRouter();
  const toast = useToast();
  const { busy, fields, failure, send } = useApiForm({ fieldNames: FIELDS });
  const [quiet, setQuiet] = useState(preferences.quiet_hours !== null);
  const [digest, setDigest] = useState(preferences.digest.enabled);
  const { kept } = splitSubscriptions(subscriptions);
  const [problem, setProblem] = useState<string | undefined>();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const chosen = subscriptionsFromForm(form, topics, kept);
    setProblem("problem" in chosen ? chosen.problem : undefined);
    if ("problem" in chosen) return;
    const saved = await send("/api/notifications/subscriptions", {
      method: "PUT",
      body: { subscriptions: chosen.subscriptions },
    });
    if (saved === false) return;
    const body = {
      email_enabled: form.get("email_enabled") === "on",
      quiet_hours: quiet
        ? { start: String(form.get("quiet_start") ?? ""), end: String(form.get("quiet_end") ?? "") }
        : null,
      digest: {
        enabled: digest,
        day: Number(form.get("digest_day") ?? preferences.digest.day),
        hour: Number(form.get("digest_hour") ?? preferences.digest.hour),
      },
    };
    if ((await send("/api/notifications/preferences", { method: "PUT", body })) === false) return;
    toast.success("Notifications saved.");
    router.refresh();
  };

  return (
    <form noValidate className={formStyles.form} onSubmit={(event) => void submit(event)}>
      <FormErrorBanner
        title="Your notifications were not saved"
        message={failure?.message}
        requestId={failure?.requestId}
      />
      <p>
        {preferences.time_zone_source === "picked" ? (
          <>
            Quiet hours and the digest are read in your time zone, <strong>{preferences.time_zone}</strong>.
          </>
        ) : (
          <>
            You have not picked a time zone, so quiet hours and the digest are read in <strong>UTC</strong> (the server
            cannot know your browser&apos;s). Pick yours under <Link href="/account">Your time zone</Link>.
          </>
        )}
      </p>
      <TopicChecklist
        legend="Tell me when"
        topics={topics}
        subscriptions={subscriptions}
        projects={projects}
        error={problem ?? fields.subscriptions}
      />
      <label>
        <input type="checkbox" name="email_enabled" defaultChecked={preferences.email_enabled} /> Send me e-mail (off:
        no alerts and no digest)
      </label>
      <fieldset>
        <legend>Quiet hours</legend>
        <label style={{ display: "block" }}>
          <input type="checkbox" checked={quiet} onChange={(event) => setQuiet(event.target.checked)} /> Hold messages
          during quiet hours, and send them when they end
        </label>
        {quiet ? (
          <div className={formStyles.inline}>
            <TextField
              type="time"
              name="quiet_start"
              label="Quiet from"
              defaultValue={preferences.quiet_hours?.start ?? "22:00"}
              error={fields["quiet_hours.start"]}
            />
            <TextField
              type="time"
              name="quiet_end"
              label="Quiet until"
              defaultValue={preferences.quiet_hours?.end ?? "07:00"}
              error={fields["quiet_hours.end"]}
            />
          </div>
        ) : null}
      </fieldset>
      <fieldset>
        <legend>Weekly digest</legend>
        <label style={{ display: "block" }}>
          <input type="checkbox" checked={digest} onChange={(event) => setDigest(event.target.checked)} /> Send me the
          week&apos;s digest: results by project, what got worse and better, checks, open alerts
        </label>
        {digest ? (
          <div className={formStyles.inline}>
            <SelectField
              name="digest_day"
              label="Digest day"
              defaultValue={String(preferences.digest.day)}
              options={DAYS.map((label, day) => ({ value: String(day), label }))}
              error={fields["digest.day"]}
            />
            <SelectField
              name="digest_hour"
              label="Digest hour"
              defaultValue={String(preferences.digest.hour)}
              options={HOURS}
              error={fields["digest.hour"]}
            />
          </div>
        ) : null}
      </fieldset>
      <div className={formStyles.buttons}>
        <Button type="submit" variant="primary" loading={busy} loadingText="Saving…">
          Save notifications
        </Button>
      </div>
    </form>
  );
}
