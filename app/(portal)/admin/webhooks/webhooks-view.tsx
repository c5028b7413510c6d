"use client";
// The webhook endpoints with an "Add an endpoint" form (in the demo, with its receiver a click away); choosing one
// shows its delivery log (every attempt, with "Send again"), and "Send test event" opens it on the test's delivery.
// A new or rotated secret is shown once.
import { useState, type FormEvent, type ReactNode } from "react";
import useSWR from "swr";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { LocalTime } from "@/components/ui/local-time";
import { TextField } from "@/components/ui/text-field";
import { useToast } from "@/components/ui/toast";
import { useApiAction, useApiForm } from "@/components/use-api-form";
import type { WebhookDeliveryOutput, WebhookOutput } from "@/lib/contract/webhooks";
import { WEBHOOK_EVENTS } from "@/lib/contract/values";
import { apiRequest, type ApiRequestError } from "@/lib/portal/api-client";

import formStyles from "../../forms.module.css";

export function WebhooksView({
  initialEndpoints,
  demoReceiverUrl,
}: {
  initialEndpoints: WebhookOutput[];
  /** Demo mode: the sandbox's receiver, offered in the form. */
  demoReceiverUrl: string | null;
}) {
  const { data, error, mutate } = useSWR<{ data: WebhookOutput[] }, ApiRequestError>("/api/admin/webhooks", {
    fallbackData: { data: initialEndpoints },
  });
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [removing, setRemoving] = useState<WebhookOutput | null>(null);
  const removal = useApiAction();
  const toast = useToast();
  const endpoints = data?.data ?? [];
  const changeProps = (endpoint: WebhookOutput) => ({
    endpoint,
    refresh: mutate,
    onSecret: (secret: string) => setSecret({ url: endpoint.url, secret }),
  });

  return (
    <>
      <AddEndpointForm
        demoReceiverUrl={demoReceiverUrl}
        onAdded={(added) => {
          setSecret(added);
          void mutate();
        }}
      />
      {secret ? (
        <Card title="Signing secret">
          <p>
            Copy it now for {secret.url}: Gatehouse shows it only this once. Verify each delivery&apos;s
            webhook-signature with it (docs/http-api.md).
          </p>
          <p>
            <code data-testid="webhook-secret">{secret.secret}</code>
          </p>
          <Button size="sm" variant="secondary" onClick={() => setSecret(null)}>
            Done
          </Button>
        </Card>
      ) : null}
      {error ? (
        <FormErrorBanner
          title="The endpoints could not be loaded"
          message={error.message}
          requestId={error.requestId}
        />
      ) : null}
      {endpoints.length === 0 ? (
        <EmptyState title="No endpoints yet">Add one above to be told when something happens.</EmptyState>
      ) : (
        endpoints.map((endpoint) => (
          <Card key={endpoint.id} title={endpoint.url} asSection>
            {!endpoint.enabled ? (
              <p role="alert">
                <Badge tone="error" mark="■">
                  Disabled
                </Badge>{" "}
                {endpoint.disabled_reason}
              </p>
            ) : endpoint.failing_since ? (
              <p role="status">
                <Badge tone="warning" mark="▲">
                  Failing
                </Badge>{" "}
                Every delivery has failed since <LocalTime iso={endpoint.failing_since} />; after three days the
                endpoint is disabled.
              </p>
            ) : (
              <p>
                <Badge tone="success" mark="●">
                  Active
                </Badge>
              </p>
            )}
            {endpoint.description ? <p>{endpoint.description}</p> : null}
            <p>Events: {endpoint.events.join(", ")}</p>
            <div className={formStyles.buttons}>
              <Button
                size="sm"
                variant="secondary"
                onClick={() => setOpen(open === endpoint.id ? null : endpoint.id)}
                aria-expanded={open === endpoint.id}
              >
                {open === endpoint.id ? "Hide deliveries" : "Deliveries"}
              </Button>
              {endpoint.enabled ? (
                <ChangeButton
                  {...changeProps(endpoint)}
                  body={{ enabled: false }}
                  done={`Paused ${endpoint.url}.`}
                  undo={{ body: { enabled: true }, done: `${endpoint.url} receives events again.` }}
                >
                  Pause
                </ChangeButton>
              ) : (
                <ChangeButton
                  {...changeProps(endpoint)}
                  body={{ enabled: true }}
                  done={`Enabled ${endpoint.url} again.`}
                >
                  Enable
                </ChangeButton>
              )}
              <ChangeButton
                {...changeProps(endpoint)}
                body={{ rotate_secret: true }}
                done="Rotated the secret: the old one signs too for 24 hours."
              >
                Rotate secret
              </ChangeButton>
              <TestEventButton endpoint={endpoint} onSent={() => setOpen(endpoint.id)} />
              <Button size="sm" variant="secondary" onClick={() => setRemoving(endpoint)}>
                Remove
              </Button>
            </div>
            {open === endpoint.id ? <DeliveryLog endpoint={endpoint} /> : null}
          </Card>
        ))
      )}
      <ConfirmDialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        title={`Remove the endpoint ${removing?.url ?? ""}?`}
        confirmLabel="Remove endpoint"
        busyLabel="Removing…"
        variant="danger"
        action={removal}
        onConfirm={async () => {
          if (!removing) return false;
          const path = `/api/admin/webhooks/${removing.id}`;
          if ((await removal.send(path, { method: "DELETE", refresh: mutate })) === false) return false;
          toast.success(`Removed ${removing.url}.`);
          return true;
        }}
      >
        Its deliveries and their log go with it; nothing more is sent to it.
      </ConfirmDialog>
    </>
  );
}

/**
 * One change to an endpoint (pause, enable, rotate its secret), busy while it is sent; a failure shows in a toast,
 * and a success in one that offers `undo` when given.
 */
function ChangeButton({
  endpoint,
  body,
  done,
  refresh,
  onSecret,
  undo,
  children,
}: {
  endpoint: WebhookOutput;
  body: Record<string, unknown>;
  /** The toast after a success. */
  done: string;
  refresh: () => Promise<unknown>;
  /** A rotated secret, to show once. */
  onSecret: (secret: string) => void;
  /** The change that takes this one back, offered as the toast's Undo, and the toast after it. */
  undo?: { body: Record<string, unknown>; done: string };
  children: ReactNode;
}) {
  const toast = useToast();
  const { busy, send } = useApiAction();
  const change = async () => {
    const answer = await send<{ data: WebhookOutput & { secret?: string } }>(`/api/admin/webhooks/${endpoint.id}`, {
      method: "PATCH",
      body,
      onRefused: (error) => toast.error(error.message),
    });
    if (!answer) return;
    if (answer.data.secret) onSecret(answer.data.secret);
    toast.success(
      done,
      undo && {
        undo: async () => {
          await apiRequest(`/api/admin/webhooks/${endpoint.id}`, { method: "PATCH", body: undo.body });
          await refresh();
          return undo.done;
        },
      },
    );
    await refresh();
  };
  return (
    <Button size="sm" variant="secondary" loading={busy} onClick={() => void change()}>
      {children}
    </Button>
  );
}

/** "Send test event": a webhook.test to this endpoint; its delivery log opens, where it shows within moments. */
function TestEventButton({ endpoint, onSent }: { endpoint: WebhookOutput; onSent: () => void }) {
  const toast = useToast();
  const { busy, send } = useApiAction();
  const sendTest = async () => {
    const sent = await send(`/api/admin/webhooks/${endpoint.id}/test`, {
      method: "POST",
      onRefused: (error) => toast.error(error.message),
    });
    if (sent === false) return;
    toast.success("Sending a test event: its delivery is in the log below.");
    onSent();
  };
  return (
    <Button size="sm" variant="secondary" loading={busy} onClick={() => void sendTest()}>
      Send test event
    </Button>
  );
}

function AddEndpointForm({
  demoReceiverUrl,
  onAdded,
}: {
  demoReceiverUrl: string | null;
  onAdded: (added: { url: string; secret: string }) => void;
}) {
  const { busy, fields, failure, send } = useApiForm();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const description = String(form.get("description") ?? "").trim();
    const body = {
      url: String(form.get("url") ?? "").trim(),
      events: form.getAll("events").map(String),
      ...(description ? { description } : {}),
    };
    const answer = await send<{ data: WebhookOutput & { secret: string } }>("/api/admin/webhooks", {
      method: "POST",
      body,
      reset: event.currentTarget,
    });
    if (answer) onAdded({ url: answer.data.url, secret: answer.data.secret });
  };

  return (
    <Card title="Add an endpoint">
      <form
        noValidate
        className={formStyles.form}
        onSubmit={(event) => void submit(event)}
        aria-label="Add an endpoint"
      >
        <FormErrorBanner title="The endpoint was not added" message={failure?.message} requestId={failure?.requestId} />
        <TextField
          id="field-webhook-url"
          name="url"
          label="URL"
          hint={
            demoReceiverUrl
              ? `https://… on a public address, or in this demo its receiver, ${demoReceiverUrl}, which answers what it got.`
              : "https://… on a public address."
          }
          required
          error={fields.url}
        />
        {demoReceiverUrl ? (
          <div>
            <Button
              type="button"
              size="sm"
              variant="secondary"
              onClick={(event) => {
                const field = event.currentTarget.form?.elements.namedItem("url");
                if (field instanceof HTMLInputElement) field.value = demoReceiverUrl;
              }}
            >
              Use the demo receiver
            </Button>
          </div>
        ) : null}
        <fieldset>
          <legend>Events</legend>
          {WEBHOOK_EVENTS.map((name) => (
            <label key={name} style={{ display: "block" }}>
              <input type="checkbox" name="events" value={name} /> {name}
            </label>
          ))}
          {Object.entries(fields).find(([name]) => name.startsWith("events"))?.[1] ? (
            <p role="alert">{Object.entries(fields).find(([name]) => name.startsWith("events"))?.[1]}</p>
          ) : null}
        </fieldset>
        <TextField
          id="field-webhook-description"
          name="description"
          label="Description (optional)"
          error={fields.description}
        />
        <div className={formStyles.buttons}>
          <Button type="submit" variant="primary" loading={busy} loadingText="Adding…">
            Add endpoint
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** "Send again" for one delivery: busy while it is asked for; the answer shows in a toast. */
function ResendButton({
  endpoint,
  delivery,
  onSent,
}: {
  endpoint: WebhookOutput;
  delivery: WebhookDeliveryOutput;
  onSent: () => void;
}) {
  const toast = useToast();
  const { busy, send } = useApiAction();
  const resend = async () => {
    const sent = await send(`/api/admin/webhooks/${endpoint.id}/deliveries/${delivery.id}/resend`, {
      method: "POST",
      onRefused: (error) => toast.error(error.message),
    });
    if (sent === false) return;
    toast.success("Sending it again.");
    onSent();
  };
  return (
    <Button
      size="sm"
      variant="secondary"
      loading={busy}
      aria-label={`Send ${delivery.id} again`}
      onClick={() => void resend()}
    >
      Send again
    </Button>
  );
}

function DeliveryLog({ endpoint }: { endpoint: WebhookOutput }) {
  const { data, error, mutate } = useSWR<{ data: WebhookDeliveryOutput[] }, ApiRequestError>(
    `/api/admin/webhooks/${endpoint.id}/deliveries`,
    { refreshInterval: 2_000 },
  );
  const columns: Column<WebhookDeliveryOutput>[] = [
    {
      id: "event",
      header: "Event",
      rowHeader: true,
      priority: "primary",
      wrap: "nowrap",
      cell: (delivery) => delivery.event,
    },
    {
      id: "created",
      header: "Created",
      wrap: "nowrap",
      fixedOrder: { direction: "desc", text: "Newest first" },
      cell: (delivery) => <LocalTime iso={delivery.created_at} />,
    },
    {
      id: "status",
      header: "Status",
      priority: "primary",
      wrap: "nowrap",
      cell: (delivery) =>
        delivery.status === "delivered" ? (
          <Badge tone="success" mark="●">
            Delivered
          </Badge>
        ) : delivery.status === "failed" ? (
          <Badge tone="error" mark="■">
            Failed
          </Badge>
        ) : (
          <Badge tone="warning" mark="▲">
            Pending
          </Badge>
        ),
    },
    {
      id: "attempts",
      header: "Attempts",
      wrap: "wrap",
      cell: (delivery) => (
        <ol>
          {delivery.log.map((attempt) => (
            <li key={attempt.at}>
              <LocalTime iso={attempt.at} /> — {attempt.status ?? "no answer"} in {attempt.duration_ms} ms
              {attempt.error ? `: ${attempt.error}` : ""}
              {attempt.response_excerpt ? <code> {attempt.response_excerpt.slice(0, 200)}</code> : null}
            </li>
          ))}
        </ol>
      ),
    },
    {
      id: "actions",
      header: "Actions",
      wrap: "nowrap",
      cell: (delivery) => <ResendButton endpoint={endpoint} delivery={delivery} onSent={() => void mutate()} />,
    },
  ];
  return (
    <DataTable
      caption={`Deliveries to ${endpoint.url}`}
      columns={columns}
      rows={data?.data}
      rowKey={(delivery) => delivery.id}
      empty={
        <EmptyState title="No deliveries yet">Nothing it subscribes to has happened since it was added.</EmptyState>
      }
      error={
        error
          ? {
              title: "The deliveries could not be loaded",
              message: error.message,
              requestId: error.requestId,
              onRetry: () => void mutate(),
            }
          : null
      }
    />
  );
}
