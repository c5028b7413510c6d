"use client";
// A channel's topics (GET/PUT /api/admin/notifications/channels/{id}/subscriptions): what the team is told of, for
// every project; narrower subscriptions made through the API are kept as they are and listed.
import { type FormEvent } from "react";
import useSWR from "swr";

import { Button } from "@/components/ui/button";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { useToast } from "@/components/ui/toast";
import { useApiForm } from "@/components/use-api-form";
import type { NotificationSubscription } from "@/lib/contract/notification-subscriptions";
import type { NotificationTopic } from "@/lib/contract/values";
import type { ApiRequestError } from "@/lib/portal/api-client";

import formStyles from "../../forms.module.css";

export interface TopicChoice {
  topic: NotificationTopic;
  words: string;
}

export function ChannelTopics({ channelId, name, topics }: { channelId: string; name: string; topics: TopicChoice[] }) {
  const path = `/api/admin/notifications/channels/${channelId}/subscriptions`;
  // Fetched when opened: no first view was rendered on the server (the portal's default waits for one).
  const current = useSWR<{ data: { subscriptions: NotificationSubscription[] } }, ApiRequestError>(path, {
    revalidateOnMount: true,
  });
  const { busy, fields, failure, send } = useApiForm({ fieldNames: ["subscriptions"] });
  const toast = useToast();
  const subscriptions = current.data?.data.subscriptions ?? [];
  const everywhere = new Set(subscriptions.filter((s) => s.project === null && s.rule === null).map((s) => s.topic));
  const narrowed = subscriptions.filter((s) => s.project !== null || s.rule !== null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const chosen = new FormData(event.currentTarget)
      .getAll("topics")
      .map((topic) => ({ topic: String(topic), project: null, rule: null }));
    const saved = await send(path, {
      method: "PUT",
      body: { subscriptions: [...chosen, ...narrowed] },
      refresh: () => current.mutate(),
    });
    if (saved !== false) toast.success(`Saved what ${name} is told of.`);
  };

  if (current.error)
    return (
      <FormErrorBanner
        title="The channel's topics could not be loaded"
        message={current.error.message}
        requestId={current.error.requestId}
      />
    );
  if (!current.data) return <p role="status">Loading the channel&apos;s topics…</p>;
  return (
    <form noValidate className={formStyles.form} onSubmit={(event) => void submit(event)}>
      <FormErrorBanner
        title="The channel's topics were not saved"
        message={failure?.message}
        requestId={failure?.requestId}
      />
      <fieldset>
        <legend>Tell {name} when</legend>
        {topics.map(({ topic, words }) => (
          <label key={topic} style={{ display: "block" }}>
            <input type="checkbox" name="topics" value={topic} defaultChecked={everywhere.has(topic)} /> {words}
          </label>
        ))}
        {narrowed.length > 0 ? (
          <p>
            Also kept (set through the API):{" "}
            {narrowed
              .map((s) => `${s.topic}${s.project ? ` for ${s.project}` : ""}${s.rule ? ` (${s.rule})` : ""}`)
              .join(", ")}
            .
          </p>
        ) : null}
        {fields.subscriptions ? <p role="alert">{fields.subscriptions}</p> : null}
      </fieldset>
      <div className={formStyles.buttons}>
        <Button type="submit" size="sm" variant="primary" loading={busy} loadingText="Saving…">
          Save topics
        </Button>
      </div>
    </form>
  );
}
