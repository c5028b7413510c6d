"use client";
// The mail server's form (with a test mail) and the team channels: an "Add a channel" form, each channel with
// Disable/Enable, "Send a test message" (its answer in a toast, the log opened), Remove, and its delivery log.
import { useState, type FormEvent } from "react";
import useSWR from "swr";

import type { TopicChoice } from "@/components/portal/topic-checklist";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { SelectField } from "@/components/ui/select-field";
import { TextField } from "@/components/ui/text-field";
import { TimeZoneField } from "@/components/ui/time-zone-field";
import { useToast } from "@/components/ui/toast";
import { useApiAction, useApiForm } from "@/components/use-api-form";
import type { ChannelOutput, SmtpOutput } from "@/lib/contract/notifications";
import type { NotificationSettingsView } from "@/lib/contract/notification-subscriptions";
import type { ApiRequestError } from "@/lib/portal/api-client";

import formStyles from "../../forms.module.css";
import { ChannelTopics } from "./channel-topics";
import { DeliveryLog } from "./delivery-log";
import { RulesForm } from "./rules-form";

const KIND_LABEL = { slack: "Slack", teams: "Microsoft Teams", email: "E-mail" } as const;
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const HOURS = Array.from({ length: 24 }, (_, hour) => ({
  value: String(hour),
  label: `${String(hour).padStart(2, "0")}:00`,
}));

type TestAnswer = { data: { sent: boolean; error: string | null } };

export function NotificationsView({
  initialChannels,
  initialSmtp,
  publicOriginSet,
  settings,
  topics,
  projects,
}: {
  initialChannels: ChannelOutput[];
  initialSmtp: SmtpOutput;
  publicOriginSet: boolean;
  settings: NotificationSettingsView;
  topics: TopicChoice[];
  /** The projects a report topic may be narrowed to. */
  projects: string[];
}) {
  const channels = useSWR<{ data: ChannelOutput[] }, ApiRequestError>("/api/admin/notifications/channels", {
    fallbackData: { data: initialChannels },
  });
  const smtp = useSWR<{ data: SmtpOutput }, ApiRequestError>("/api/admin/notifications/smtp", {
    fallbackData: { data: initialSmtp },
  });
  const [open, setOpen] = useState<string | null>(null);
  const [choosing, setChoosing] = useState<string | null>(null);
  const [removing, setRemoving] = useState<ChannelOutput | null>(null);
  const removal = useApiAction();
  const toast = useToast();
  const list = channels.data?.data ?? [];
  const refresh = async () => {
    await Promise.all([channels.mutate(), smtp.mutate()]);
  };

  return (
    <>
      {publicOriginSet ? null : (
        <p role="status">
          <Badge tone="warning" mark="▲">
            No PUBLIC_ORIGIN
          </Badge>{" "}
          Messages link to Gatehouse&apos;s pages by path only (/reports/12), which a chat or a mailbox cannot open: set
          PUBLIC_ORIGIN to the portal&apos;s address (docs/configuration.md).
        </p>
      )}
      <SmtpForm smtp={smtp.data?.data ?? initialSmtp} refresh={refresh} />
      <RulesForm settings={settings} />
      <AddChannelForm onAdded={() => void channels.mutate()} />
      {channels.error ? (
        <FormErrorBanner
          title="The channels could not be loaded"
          message={channels.error.message}
          requestId={channels.error.requestId}
        />
      ) : null}
      {list.length === 0 ? (
        <EmptyState title="No channels yet">Add one above to tell a team in Slack, Teams or by e-mail.</EmptyState>
      ) : (
        list.map((channel) => (
          <Card key={channel.id} title={`${channel.name} (${KIND_LABEL[channel.kind]})`} asSection>
            <p>
              {channel.enabled ? (
                <Badge tone="success" mark="●">
                  Enabled
                </Badge>
              ) : (
                <Badge tone="error" mark="■">
                  Disabled
                </Badge>
              )}{" "}
              {channel.target_hint}
            </p>
            {channel.sendable && channel.enabled ? <p role="alert">{channel.sendable}</p> : null}
            <p>
              Weekly digest:{" "}
              {channel.digest_enabled
                ? `${DAYS[channel.digest_day]} at ${String(channel.digest_hour).padStart(2, "0")}:00, ${channel.time_zone}`
                : "off"}
            </p>
            <div className={formStyles.buttons}>
              <Button
                size="sm"
                variant="secondary"
                onClick={() => setOpen(open === channel.id ? null : channel.id)}
                aria-expanded={open === channel.id}
              >
                {open === channel.id ? "Hide deliveries" : "Deliveries"}
              </Button>
              <Button
                size="sm"
                variant="secondary"
                onClick={() => setChoosing(choosing === channel.id ? null : channel.id)}
                aria-expanded={choosing === channel.id}
              >
                {choosing === channel.id ? "Hide topics" : "Topics"}
              </Button>
              <EnableButton channel={channel} refresh={() => channels.mutate()} />
              <TestButton
                label={`Send a test message to ${channel.name}`}
                path={`/api/admin/notifications/channels/${channel.id}/test`}
                onDone={() => setOpen(channel.id)}
              >
                Send a test message
              </TestButton>
              <Button size="sm" variant="secondary" onClick={() => setRemoving(channel)}>
                Remove
              </Button>
            </div>
            {choosing === channel.id ? (
              <ChannelTopics channelId={channel.id} name={channel.name} topics={topics} projects={projects} />
            ) : null}
            {open === channel.id ? <DeliveryLog channel={channel} /> : null}
          </Card>
        ))
      )}
      <ConfirmDialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        title={`Remove the channel ${removing?.name ?? ""}?`}
        confirmLabel="Remove channel"
        busyLabel="Removing…"
        variant="danger"
        action={removal}
        onConfirm={async () => {
          if (!removing) return false;
          const path = `/api/admin/notifications/channels/${removing.id}`;
          if ((await removal.send(path, { method: "DELETE", refresh: () => channels.mutate() })) === false)
            return false;
          toast.success(`Removed ${removing.name}.`);
          return true;
        }}
      >
        Its subscriptions, deliveries and their log go with it; nothing more is sent to it.
      </ConfirmDialog>
    </>
  );
}

/** Disable or enable a channel, busy while it is sent; the answer shows in a toast. */
function EnableButton({ channel, refresh }: { channel: ChannelOutput; refresh: () => Promise<unknown> }) {
  const toast = useToast();
  const { busy, send } = useApiAction();
  const change = async () => {
    const answer = await send(`/api/admin/notifications/channels/${channel.id}`, {
      method: "PATCH",
      body: { enabled: !channel.enabled },
      onRefused: (error) => toast.error(error.message),
    });
    if (answer === false) return;
    toast.success(channel.enabled ? `Disabled ${channel.name}: nothing is sent to it.` : `Enabled ${channel.name}.`);
    await refresh();
  };
  return (
    <Button size="sm" variant="secondary" loading={busy} onClick={() => void change()}>
      {channel.enabled ? "Disable" : "Enable"}
    </Button>
  );
}

/** A test message (a channel's, or the mail server's to an address): sent now; whether it went, in a toast. */
function TestButton({
  path,
  body,
  label,
  onDone,
  children,
}: {
  path: string;
  body?: Record<string, unknown>;
  label: string;
  onDone?: () => void;
  children: string;
}) {
  const toast = useToast();
  const { busy, send } = useApiAction();
  const test = async () => {
    const answer = await send<TestAnswer>(path, {
      method: "POST",
      ...(body && { body }),
      onRefused: (error) => toast.error(error.message),
    });
    if (!answer) return;
    if (answer.data.sent) toast.success("The test message was sent.");
    else toast.error(`The test message was ${answer.data.error ?? "not sent"}.`);
    onDone?.();
  };
  return (
    <Button size="sm" variant="secondary" loading={busy} aria-label={label} onClick={() => void test()}>
      {children}
    </Button>
  );
}

function SmtpForm({ smtp, refresh }: { smtp: SmtpOutput; refresh: () => Promise<void> }) {
  const { busy, fields, failure, send } = useApiForm();
  const toast = useToast();
  const [to, setTo] = useState("");
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password") ?? "");
    const username = String(form.get("username") ?? "").trim();
    const answer = await send("/api/admin/notifications/smtp", {
      method: "PUT",
      body: {
        host: String(form.get("host") ?? "").trim(),
        port: Number(form.get("port") ?? 0),
        security: String(form.get("security") ?? "starttls"),
        username: username || null,
        ...(password !== "" && { password }),
        from_address: String(form.get("from_address") ?? "").trim(),
      },
    });
    if (!answer) return;
    toast.success("The mail server is set.");
    await refresh();
  };
  return (
    <Card title="Mail server">
      {smtp.configured ? null : (
        <p role="status">
          No mail server is set: e-mail channels and people&apos;s e-mail cannot be sent until one is.
        </p>
      )}
      <form noValidate className={formStyles.form} onSubmit={(event) => void submit(event)} aria-label="Mail server">
        <FormErrorBanner
          title="The mail server was not set"
          message={failure?.message}
          requestId={failure?.requestId}
        />
        <TextField
          id="field-smtp-host"
          name="host"
          label="Host"
          defaultValue={smtp.host ?? ""}
          required
          error={fields.host}
        />
        <TextField
          id="field-smtp-port"
          name="port"
          label="Port"
          inputMode="numeric"
          defaultValue={String(smtp.port ?? 587)}
          required
          error={fields.port}
        />
        <SelectField
          id="field-smtp-security"
          name="security"
          label="Security"
          defaultValue={smtp.security ?? "starttls"}
          options={[
            { value: "starttls", label: "STARTTLS (usually port 587)" },
            { value: "tls", label: "TLS (usually port 465)" },
          ]}
          error={fields.security}
        />
        <TextField
          id="field-smtp-username"
          name="username"
          label="User (optional)"
          autoComplete="off"
          defaultValue={smtp.username ?? ""}
          error={fields.username}
        />
        <TextField
          id="field-smtp-password"
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={
            smtp.password_set
              ? "Set: leave empty to keep it. Never shown again."
              : "Sealed when saved, never shown again."
          }
          error={fields.password}
        />
        <TextField
          id="field-smtp-from"
          name="from_address"
          label="From address"
          defaultValue={smtp.from_address ?? ""}
          required
          error={fields.from_address}
        />
        <div className={formStyles.buttons}>
          <Button type="submit" variant="primary" loading={busy} loadingText="Saving…">
            Save mail server
          </Button>
        </div>
      </form>
      {smtp.configured ? (
        <div className={formStyles.form}>
          <TextField
            id="field-smtp-test-to"
            name="to"
            label="Send a test mail to"
            value={to}
            onChange={(event) => setTo(event.currentTarget.value)}
          />
          <div className={formStyles.buttons}>
            <TestButton label="Send a test mail" path="/api/admin/notifications/smtp/test" body={{ to: to.trim() }}>
              Send a test mail
            </TestButton>
          </div>
        </div>
      ) : null}
    </Card>
  );
}

function AddChannelForm({ onAdded }: { onAdded: () => void }) {
  const { busy, fields, failure, send } = useApiForm();
  const [kind, setKind] = useState<keyof typeof KIND_LABEL>("slack");
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const answer = await send("/api/admin/notifications/channels", {
      method: "POST",
      body: {
        kind,
        name: String(form.get("name") ?? "").trim(),
        target: String(form.get("target") ?? "").trim(),
        time_zone: String(form.get("time_zone") ?? "UTC"),
        digest_enabled: form.get("digest_enabled") === "on",
        digest_day: Number(form.get("digest_day") ?? 1),
        digest_hour: Number(form.get("digest_hour") ?? 9),
      },
      reset: event.currentTarget,
    });
    if (answer) onAdded();
  };
  return (
    <Card title="Add a channel">
      <form noValidate className={formStyles.form} onSubmit={(event) => void submit(event)} aria-label="Add a channel">
        <FormErrorBanner title="The channel was not added" message={failure?.message} requestId={failure?.requestId} />
        <SelectField
          id="field-channel-kind"
          name="kind"
          label="Kind"
          value={kind}
          onChange={(event) => setKind(event.currentTarget.value as keyof typeof KIND_LABEL)}
          options={Object.entries(KIND_LABEL).map(([value, label]) => ({ value, label }))}
          error={fields.kind}
        />
        <TextField id="field-channel-name" name="name" label="Name" required error={fields.name} />
        <TextField
          id="field-channel-target"
          name="target"
          label={kind === "email" ? "E-mail addresses" : "Webhook URL"}
          hint={
            kind === "slack"
              ? "The incoming webhook's URL, https://hooks.slack.com/services/…: sealed when saved, never shown again."
              : kind === "teams"
                ? "The Workflows (or connector) webhook's URL: sealed when saved, never shown again."
                : "One address or several, separated by commas."
          }
          autoComplete="off"
          required
          error={fields.target}
        />
        <TimeZoneField
          name="time_zone"
          defaultValue="UTC"
          hint="The weekly digest's day and hour are in it."
          error={fields.time_zone}
        />
        <label>
          <input type="checkbox" name="digest_enabled" defaultChecked /> Send the weekly digest
        </label>
        <SelectField
          id="field-channel-digest-day"
          name="digest_day"
          label="Digest day"
          defaultValue="1"
          options={DAYS.map((label, day) => ({ value: String(day), label }))}
          error={fields.digest_day}
        />
        <SelectField
          id="field-channel-digest-hour"
          name="digest_hour"
          label="Digest hour"
          defaultValue="9"
          options={HOURS}
          error={fields.digest_hour}
        />
        <div className={formStyles.buttons}>
          <Button type="submit" variant="primary" loading={busy} loadingText="Adding…">
            Add channel
          </Button>
        </div>
      </form>
    </Card>
  );
}
