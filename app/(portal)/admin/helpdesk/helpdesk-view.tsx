"use client";
// Admin → Helpdesk in the browser: one section per helpdesk. Zendesk and Freshdesk get a "Make the token" form that
// posts to the tokens API with the purchases:check scope alone (the secret shown once, as on the tokens page, and the
// password asked for when the sign-in is not recent); Help Scout gets its Callback URL and its secret — made,
// rotated (a confirm: the old one stops working) or removed, the new one shown once. Under each, its last lookups.
import { useState, type FormEvent } from "react";
import useSWR from "swr";

import { CodeStatusBadge } from "@/components/portal/purchase-badges";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { LocalTime } from "@/components/ui/local-time";
import { SafeLink } from "@/components/ui/safe-link";
import { useToast } from "@/components/ui/toast";
import { useApiAction, useApiForm } from "@/components/use-api-form";
import type { HelpdeskSettings, HelpScoutSecret } from "@/lib/contract/helpdesk";
import type { PurchaseHistoryEntry } from "@/lib/contract/purchases";
import { ticketFilter } from "@/lib/contract/values";
import type { ApiRequestError } from "@/lib/portal/api-client";

import formStyles from "../../forms.module.css";
import { NewSecret } from "../../tokens/tokens-view";
import styles from "./helpdesk.module.css";

/** The days a sidebar's token lasts: a year, the longest a person's token may (service accounts' never expire). */
const SIDEBAR_TOKEN_DAYS = 365;

const LOOKUP_COLUMNS: ReadonlyArray<Column<PurchaseHistoryEntry>> = [
  {
    id: "when",
    header: "When",
    wrap: "nowrap",
    fixedOrder: { direction: "desc", text: "Newest first" },
    cell: (row) => <LocalTime iso={row.checked_at} display="both" />,
  },
  {
    id: "code",
    header: "Code",
    rowHeader: true,
    priority: "primary",
    wrap: "nowrap",
    cell: (row) => (row.code_last4 ? <code>…{row.code_last4}</code> : "Too short to show"),
  },
  {
    id: "outcome",
    header: "Outcome",
    priority: "primary",
    wrap: "nowrap",
    cell: (row) => <CodeStatusBadge status={row.outcome} />,
  },
  {
    id: "ticket",
    header: "Ticket",
    wrap: "nowrap",
    cell: (row) =>
      row.ticket ? (
        <SafeLink href={row.ticket.url} missing={ticketFilter(row.ticket)}>
          {ticketFilter(row.ticket)}
        </SafeLink>
      ) : (
        "—"
      ),
  },
];

function LastLookups({ helpdesk, rows }: { helpdesk: string; rows: PurchaseHistoryEntry[] }) {
  return (
    <DataTable
      caption={`${helpdesk}'s last lookups`}
      columns={LOOKUP_COLUMNS}
      rows={rows}
      rowKey={(row) => String(row.id)}
      empty={<EmptyState title="No lookups yet">{`Checks made from ${helpdesk} appear here.`}</EmptyState>}
    />
  );
}

export function HelpdeskView({ initialSettings }: { initialSettings: HelpdeskSettings }) {
  const { data, mutate } = useSWR<{ data: HelpdeskSettings }, ApiRequestError>("/api/admin/helpdesk", {
    fallbackData: { data: initialSettings },
  });
  const settings = data?.data ?? initialSettings;
  return (
    <>
      <section aria-labelledby="helpdesk-zendesk">
        <h2 id="helpdesk-zendesk">Zendesk</h2>
        <p>
          The Gatehouse app in Zendesk&apos;s ticket sidebar asks with a token that may check codes and nothing else.
          Make it here and paste it into the app&apos;s settings (set-up: docs/helpdesk.md, section Zendesk).
        </p>
        <SidebarTokenForm helpdesk="Zendesk" />
        <LastLookups helpdesk="Zendesk" rows={settings.last_lookups.zendesk} />
      </section>
      <section aria-labelledby="helpdesk-freshdesk">
        <h2 id="helpdesk-freshdesk">Freshdesk</h2>
        <p>
          The Gatehouse app in Freshdesk&apos;s ticket sidebar asks with a token that may check codes and nothing else.
          Make it here and paste it into the app&apos;s settings (set-up: docs/helpdesk.md, section Freshdesk).
        </p>
        <SidebarTokenForm helpdesk="Freshdesk" />
        <LastLookups helpdesk="Freshdesk" rows={settings.last_lookups.freshdesk} />
      </section>
      <section aria-labelledby="helpdesk-helpscout">
        <h2 id="helpdesk-helpscout">Help Scout</h2>
        <HelpScoutSecretCard status={settings.helpscout} refresh={() => mutate()} />
        <LastLookups helpdesk="Help Scout" rows={settings.last_lookups.helpscout} />
      </section>
    </>
  );
}

/** "Make the token" for a helpdesk's sidebar: the purchases:check scope alone, named after the helpdesk. */
function SidebarTokenForm({ helpdesk }: { helpdesk: string }) {
  const { busy, failure, send } = useApiForm();
  const [made, setMade] = useState<{ name: string; secret: string } | null>(null);
  const name = `${helpdesk} sidebar`;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body: Record<string, unknown> = {
      name,
      scopes: ["purchases:check"],
      expires_in_days: SIDEBAR_TOKEN_DAYS,
    };
    const answer = await send<{ data: { name: string; secret: string } }>("/api/tokens", {
      method: "POST",
      body,
      reset: event.currentTarget,
    });
    if (answer) setMade({ name: answer.data.name, secret: answer.data.secret });
  };

  if (made) return <NewSecret token={made} onDone={() => setMade(null)} />;
  return (
    <form
      noValidate
      className={formStyles.form}
      onSubmit={(event) => void submit(event)}
      aria-label={`Make the ${helpdesk} token`}
    >
      <FormErrorBanner title="No token was made" message={failure?.message} requestId={failure?.requestId} />
      <p>
        The token is named &quot;{name}&quot;, may only check purchase codes (purchases:check), acts as you and lasts{" "}
        {SIDEBAR_TOKEN_DAYS} days; revoke it on the API tokens page.
      </p>
      <div className={formStyles.buttons}>
        <Button type="submit" variant="primary" loading={busy} loadingText="Making…">
          Make the {helpdesk} token
        </Button>
      </div>
    </form>
  );
}

/** Help Scout's Callback URL and secret: made, rotated or removed; a new one shown once. */
function HelpScoutSecretCard({
  status,
  refresh,
}: {
  status: HelpdeskSettings["helpscout"];
  refresh: () => Promise<unknown>;
}) {
  const making = useApiAction();
  const removal = useApiAction();
  const toast = useToast();
  const [shown, setShown] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<"rotate" | "remove" | null>(null);

  const make = async (): Promise<boolean> => {
    const answer = await making.send<{ data: HelpScoutSecret }>("/api/admin/helpdesk/helpscout-secret", {
      method: "POST",
      refresh,
    });
    if (answer === false) return false;
    setShown(answer.data.secret);
    return true;
  };

  return (
    <>
      <p>
        In Help Scout, add a dynamic custom app with this Callback URL and the secret made here; the app shows the
        verdicts of the codes in a conversation&apos;s subject (set-up: docs/helpdesk.md, section Help Scout).
      </p>
      <p>
        Callback URL:{" "}
        <code className={styles.value} data-testid="helpscout-callback">
          {status.callback_url}
        </code>
      </p>
      {shown ? (
        <Card title="Help Scout's secret">
          <p>Copy it now into Help Scout&apos;s app: Gatehouse keeps it sealed and cannot show it again.</p>
          <p>
            <code className={styles.value} data-testid="helpscout-secret">
              {shown}
            </code>{" "}
            <Button size="sm" variant="secondary" onClick={() => void navigator.clipboard?.writeText(shown)}>
              Copy
            </Button>
          </p>
          <Button size="sm" variant="secondary" onClick={() => setShown(null)}>
            Done
          </Button>
        </Card>
      ) : null}
      {status.set ? (
        <p>
          A secret is set, made <LocalTime iso={status.set_at} display="both" />
          {status.set_by ? ` by ${status.set_by}` : ""}.
        </p>
      ) : (
        <p>No secret is set: Help Scout&apos;s requests are refused until one is made.</p>
      )}
      <FormErrorBanner
        title="No secret was made"
        message={confirming === null ? making.failure?.message : undefined}
        requestId={making.failure?.requestId}
      />
      <div className={formStyles.buttons}>
        {status.set ? (
          <>
            <Button variant="secondary" onClick={() => setConfirming("rotate")}>
              Rotate the secret
            </Button>
            <Button variant="secondary" onClick={() => setConfirming("remove")}>
              Remove the secret
            </Button>
          </>
        ) : (
          <Button variant="primary" loading={making.busy} loadingText="Making…" onClick={() => void make()}>
            Make the secret
          </Button>
        )}
      </div>
      <ConfirmDialog
        open={confirming === "rotate"}
        onClose={() => setConfirming(null)}
        title="Rotate Help Scout's secret?"
        confirmLabel="Rotate secret"
        busyLabel="Rotating…"
        action={making}
        onConfirm={make}
      >
        A new secret replaces the one set: Help Scout&apos;s requests signed with the old one are refused from now on,
        until the new one is pasted into Help Scout&apos;s app.
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === "remove"}
        onClose={() => setConfirming(null)}
        title="Remove Help Scout's secret?"
        confirmLabel="Remove secret"
        busyLabel="Removing…"
        variant="danger"
        action={removal}
        onConfirm={async () => {
          const removed = await removal.send("/api/admin/helpdesk/helpscout-secret", { method: "DELETE", refresh });
          if (removed === false) return false;
          setShown(null);
          toast.success("Removed Help Scout's secret: its requests are refused until a new one is made.");
          return true;
        }}
      >
        Help Scout&apos;s app stops working until a new secret is made and pasted into it.
      </ConfirmDialog>
    </>
  );
}
