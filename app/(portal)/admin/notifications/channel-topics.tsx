"use client";
// A channel's topics (GET/PUT /api/admin/notifications/channels/{id}/subscriptions): what the team is told of, a
// report topic for every project or the projects chosen, and an alert rule; what the form cannot show is kept.
import { useState, type FormEvent } from "react";
import useSWR from "swr";

import {
  splitSubscriptions,
  subscriptionsFromForm,
  TopicChecklist,
  type TopicChoice,
} from "@/components/portal/topic-checklist";
import { Button } from "@/components/ui/button";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { useToast } from "@/components/ui/toast";
import { useApiForm } from "@/components/use-api-form";
import type { NotificationSubscription } from "@/lib/contract/notification-subscriptions";
import type { ApiRequestError } from "@/lib/portal/api-client";

import formStyles from "../../forms.module.css";

export function ChannelTopics({
  channelId,
  name,
  topics,
  projects,
}: {
  channelId: string;
  name: string;
  topics: TopicChoice[];
  projects: string[];
}) {
  const path = `/api/admin/notifications/channels/${channelId}/subscriptions`;
  // Fetched when opened: no first view was rendered on the server (the portal's default waits for one).
  const current = useSWR<{ data: { subscriptions: NotificationSubscription[] } }, ApiRequestError>(path, {
    revalidateOnMount: true,
  });
  const { busy, fields, failure, send } = useApiForm({ fieldNames: ["subscriptions"] });
  const toast = useToast();
  const subscriptions = current.data?.data.subscriptions ?? [];
  const { kept } = splitSubscriptions(subscriptions);
  const [problem, setProblem] = useState<string | undefined>();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const chosen = subscriptionsFromForm(new FormData(event.currentTarget), topics, kept);
    setProblem("problem" in chosen ? chosen.problem : undefined);
    if ("problem" in chosen) return;
    const saved = await send(path, {
      method: "PUT",
      body: { subscriptions: chosen.subscriptions },
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
      <TopicChecklist
        legend={`Tell ${name} when`}
        topics={topics}
        subscriptions={subscriptions}
        projects={projects}
        error={problem ?? fields.subscriptions}
      />
      <div className={formStyles.buttons}>
        <Button type="submit" size="sm" variant="primary" loading={busy} loadingText="Saving…">
          Save topics
        </Button>
      </div>
    </form>
  );
}
