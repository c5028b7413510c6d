"use client";
// Admin → Purchase codes in the browser: what the sweep has to do (and "Sweep now"), the lifecycle's settings saved
// whole (the gateway's field errors beside their fields), and each item's renewal link, set or removed.
import type { FormEvent } from "react";
import useSWR from "swr";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";
import { DescriptionList } from "@/components/ui/description-list";
import { EmptyState } from "@/components/ui/empty-state";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { LocalTime } from "@/components/ui/local-time";
import { TextField } from "@/components/ui/text-field";
import { useToast } from "@/components/ui/toast";
import { useApiAction, useApiForm } from "@/components/use-api-form";
import type { PurchaseLifecycleState, RenewalLink } from "@/lib/contract/purchase-sweep";
import type { ApiRequestError } from "@/lib/portal/api-client";

import formStyles from "../../forms.module.css";

const STATE_PATH = "/api/admin/purchase-lifecycle";

/** A number field's value as the API takes it: a number, or null when it is not one (the API says why). */
const numberOf = (form: FormData, name: string): number | null => {
  const text = String(form.get(name) ?? "").trim();
  return text === "" || Number.isNaN(Number(text)) ? null : Number(text);
};

/** "all", or the item ids listed (commas or spaces between); what is not a number is sent as is, to be refused. */
function itemsOf(text: string): "all" | Array<number | string> {
  const trimmed = text.trim();
  if (trimmed === "" || trimmed.toLowerCase() === "all") return "all";
  return trimmed
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((id) => (/^\d+$/.test(id) ? Number(id) : id));
}

export function PurchaseCodesView({ initialState }: { initialState: PurchaseLifecycleState }) {
  const { data, mutate } = useSWR<{ data: PurchaseLifecycleState }, ApiRequestError>(STATE_PATH, {
    fallbackData: { data: initialState },
  });
  const state = data?.data ?? initialState;
  const refresh = () => mutate();
  return (
    <>
      <SweepCard state={state} refresh={refresh} />
      <SettingsForm state={state} refresh={refresh} />
      <RenewalLinks links={state.renewal_links} refresh={refresh} />
    </>
  );
}

function SweepCard({ state, refresh }: { state: PurchaseLifecycleState; refresh: () => Promise<unknown> }) {
  const running = useApiAction();
  const toast = useToast();
  const { sweep } = state.settings;
  const perDay = Math.floor(state.budget.sweep_calls_per_minute * 60 * 24);
  return (
    <Card title="The sweep">
      <p>
        {sweep.enabled
          ? `On: valid codes of ${sweep.items === "all" ? "every item" : `items ${sweep.items.join(", ")}`} are checked again when their last verdict is ${sweep.every_days} days old, oldest first.`
          : "Off: valid codes are checked again only when someone checks them."}{" "}
        A code is enrolled (kept sealed) at its next check once its item is covered, and forgotten when it leaves.
      </p>
      <DescriptionList
        items={[
          { term: "Codes enrolled", description: <span data-testid="sweep-enrolled">{state.enrolled}</span> },
          { term: "Due now", description: state.due },
          { term: "Waiting since an outage", description: state.waiting_rechecks },
          {
            term: "Budget",
            description: `${state.budget.sweep_calls_per_minute} calls a minute (${state.budget.max_share * 100} % of the item API's ${state.budget.items_calls_per_minute}), at most ${perDay} a day`,
          },
        ]}
      />
      <FormErrorBanner
        title="The sweep did not start"
        message={running.failure?.message}
        requestId={running.failure?.requestId}
      />
      <div className={formStyles.buttons}>
        <Button
          variant="secondary"
          loading={running.busy}
          loadingText="Starting…"
          onClick={() =>
            void running
              .send("/api/admin/purchase-lifecycle/sweep", { method: "POST", refresh })
              .then(
                (answer) =>
                  answer !== false && toast.success("The sweep is running; its checks appear in the history."),
              )
          }
        >
          Sweep now
        </Button>
      </div>
    </Card>
  );
}

/** The settings form's fields, by the gateway's names for them: their errors show beside them, not in the banner. */
const SETTINGS_FIELDS = [
  "sweep.enabled",
  "sweep.items",
  "sweep.every_days",
  "support_expiring_days",
  "shared.window_days",
  "shared.tickets",
  "shared.tokens",
  "shared.addresses",
] as const;

function SettingsForm({ state, refresh }: { state: PurchaseLifecycleState; refresh: () => Promise<unknown> }) {
  const { busy, fields, failure, send } = useApiForm({ fieldNames: SETTINGS_FIELDS });
  const toast = useToast();
  const settings = state.settings;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = {
      sweep: {
        enabled: form.get("sweep.enabled") === "on",
        items: itemsOf(String(form.get("sweep.items") ?? "")),
        every_days: numberOf(form, "sweep.every_days"),
      },
      support_expiring_days: numberOf(form, "support_expiring_days"),
      shared: {
        window_days: numberOf(form, "shared.window_days"),
        tickets: numberOf(form, "shared.tickets"),
        tokens: numberOf(form, "shared.tokens"),
        addresses: numberOf(form, "shared.addresses"),
      },
    };
    const answer = await send<{ data: { forgotten: number } }>(STATE_PATH, { method: "PUT", body, refresh });
    if (answer === false) return;
    const forgotten = answer.data.forgotten;
    toast.success(
      forgotten > 0
        ? `Saved. ${forgotten} code${forgotten === 1 ? "" : "s"} no longer covered ${forgotten === 1 ? "was" : "were"} forgotten.`
        : "Saved the purchase code settings.",
    );
  };

  const items = settings.sweep.items === "all" ? "all" : settings.sweep.items.join(", ");
  return (
    <Card title="Settings">
      {/* Keyed by the saved settings: a save (here or elsewhere) shows what is stored. */}
      <form
        key={state.updated_at ?? "defaults"}
        noValidate
        className={formStyles.form}
        onSubmit={(event) => void submit(event)}
        aria-label="Purchase code settings"
      >
        <FormErrorBanner
          title="The settings were not saved"
          message={failure?.message}
          requestId={failure?.requestId}
        />
        <fieldset>
          <legend>Re-checking valid codes</legend>
          <label>
            <input type="checkbox" name="sweep.enabled" defaultChecked={settings.sweep.enabled} /> Re-check valid codes
            on a schedule (the sweep)
          </label>
          {fields["sweep.enabled"] ? <p role="alert">{fields["sweep.enabled"]}</p> : null}
          <TextField
            id="field-sweep-items"
            name="sweep.items"
            label="Items"
            hint='"all", or the item ids whose codes are re-checked, separated by commas'
            defaultValue={items}
            error={
              fields["sweep.items"] ?? Object.entries(fields).find(([name]) => name.startsWith("sweep.items."))?.[1]
            }
          />
          <TextField
            id="field-sweep-every-days"
            name="sweep.every_days"
            type="number"
            label="Re-check a code when its verdict is this many days old"
            defaultValue={settings.sweep.every_days}
            error={fields["sweep.every_days"]}
          />
        </fieldset>
        <TextField
          id="field-support-expiring-days"
          name="support_expiring_days"
          type="number"
          label="Support ends soon within (days)"
          hint="Listed under Purchases → Support ending, said in the verdict, and sent once as purchase.support_expiring"
          defaultValue={settings.support_expiring_days}
          error={fields.support_expiring_days}
        />
        <fieldset>
          <legend>Possibly shared: a code checked from this many places</legend>
          <TextField
            id="field-shared-window-days"
            name="shared.window_days"
            type="number"
            label="Within (days)"
            defaultValue={settings.shared.window_days}
            error={fields["shared.window_days"]}
          />
          <TextField
            id="field-shared-tickets"
            name="shared.tickets"
            type="number"
            label="Helpdesk tickets"
            defaultValue={settings.shared.tickets}
            error={fields["shared.tickets"]}
          />
          <TextField
            id="field-shared-tokens"
            name="shared.tokens"
            type="number"
            label="API tokens"
            defaultValue={settings.shared.tokens}
            error={fields["shared.tokens"]}
          />
          <TextField
            id="field-shared-addresses"
            name="shared.addresses"
            type="number"
            label="Client addresses"
            defaultValue={settings.shared.addresses}
            error={fields["shared.addresses"]}
          />
        </fieldset>
        {state.updated_at ? (
          <p>
            Last saved <LocalTime iso={state.updated_at} display="both" />
            {state.updated_by ? ` by ${state.updated_by}` : ""}.
          </p>
        ) : (
          <p>The defaults: no admin has saved settings yet.</p>
        )}
        <div className={formStyles.buttons}>
          <Button type="submit" variant="primary" loading={busy} loadingText="Saving…">
            Save settings
          </Button>
        </div>
      </form>
    </Card>
  );
}

const LINK_COLUMNS: ReadonlyArray<Column<RenewalLink>> = [
  { id: "item", header: "Item", rowHeader: true, priority: "primary", wrap: "nowrap", cell: (row) => row.item_id },
  { id: "url", header: "Renewal link", priority: "primary", cell: (row) => <code>{row.renewal_url}</code> },
  {
    id: "when",
    header: "Set",
    wrap: "nowrap",
    cell: (row) => (
      <>
        <LocalTime iso={row.updated_at} display="both" />
        {row.updated_by ? ` by ${row.updated_by}` : ""}
      </>
    ),
  },
];

function RenewalLinks({ links, refresh }: { links: RenewalLink[]; refresh: () => Promise<unknown> }) {
  const { busy, fields, failure, send, check } = useApiForm({ fieldNames: ["item_id", "renewal_url"] });
  const toast = useToast();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const item = String(form.get("item_id") ?? "").trim();
    if (!check({ item_id: /^[1-9]\d{0,14}$/.test(item) ? undefined : "Give the item's id (a whole number)." })) return;
    const url = String(form.get("renewal_url") ?? "").trim();
    const answer = await send(`/api/admin/purchase-lifecycle/items/${item}`, {
      method: "PUT",
      body: { renewal_url: url === "" ? null : url },
      refresh,
      reset: event.currentTarget,
    });
    if (answer !== false)
      toast.success(url === "" ? `Removed item ${item}'s renewal link.` : `Set item ${item}'s renewal link.`);
  };

  return (
    <Card title="Renewal links">
      <p>
        Where a buyer renews an item&apos;s support: shown with the verdict and on the helpdesk card when support has
        ended or ends soon.
      </p>
      <DataTable
        caption="Renewal links"
        captionHidden
        columns={LINK_COLUMNS}
        rows={links}
        rowKey={(row) => String(row.item_id)}
        empty={<EmptyState title="No renewal links yet">Set one below for each item you sell support for.</EmptyState>}
      />
      <form
        noValidate
        className={formStyles.form}
        onSubmit={(event) => void submit(event)}
        aria-label="Set a renewal link"
      >
        <FormErrorBanner title="The link was not saved" message={failure?.message} requestId={failure?.requestId} />
        <TextField id="field-renewal-item" name="item_id" label="Item id" inputMode="numeric" error={fields.item_id} />
        <TextField
          id="field-renewal-url"
          name="renewal_url"
          type="url"
          label="Renewal link"
          hint="https://…; leave empty to remove the item's link"
          error={fields.renewal_url}
        />
        <div className={formStyles.buttons}>
          <Button type="submit" variant="primary" loading={busy} loadingText="Saving…">
            Save link
          </Button>
        </div>
      </form>
    </Card>
  );
}
