"use client";
// Each area's connection: the key in use (fingerprint, last 4), where it is kept, its health as a chart with a
// table, a form to test and save a new key, and the stored keys with "Restore" (undo a rotation) and "Remove".
// Every change goes to the admin API; the view is reloaded from it, and a toast says what was done only once
// the API said so.
import { useState, type FormEvent } from "react";
import useSWR from "swr";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DescriptionList } from "@/components/ui/description-list";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { HealthChart } from "@/components/ui/health-chart";
import { LocalTime } from "@/components/ui/local-time";
import { TextField } from "@/components/ui/text-field";
import { useToast } from "@/components/ui/toast";
import { useApiAction, useApiForm } from "@/components/use-api-form";
import { AREA_WORDS, capitalised } from "@/lib/contract/areas";
import type { UpstreamAreaStatus } from "@/lib/contract/upstream-keys";
import type { ApiRequestError } from "@/lib/portal/api-client";

import formStyles from "../../forms.module.css";

type StoredKey = UpstreamAreaStatus["stored"][number];

const BREAKER_WORDS = {
  closed: "Closed (calls go through)",
  open: "Open (calls refused for now)",
  half_open: "Half open (one trial call)",
} as const;

export function UpstreamView({ initialAreas }: { initialAreas: UpstreamAreaStatus[] }) {
  const { data, mutate } = useSWR<{ data: UpstreamAreaStatus[] }, ApiRequestError>("/api/admin/upstream-keys", {
    fallbackData: { data: initialAreas },
    refreshInterval: 15_000,
  });
  const areas = data?.data ?? initialAreas;
  return (
    <>
      {areas.map((area) => (
        <AreaCard key={area.area} area={area} onChanged={() => void mutate()} />
      ))}
    </>
  );
}

function keyText(fingerprint: string, last4: string | null): string {
  return last4 === null ? fingerprint : `${fingerprint} · ends in ${last4}`;
}

function AreaCard({ area, onChanged }: { area: UpstreamAreaStatus; onChanged: () => void }) {
  const words = AREA_WORDS[area.area];
  const title = capitalised(words.api);
  if (!area.configured) {
    return (
      <Card title={title} asSection>
        <p>
          Not configured: set {words.variables.baseUrl} (and the key in {words.variables.key}, or GATEHOUSE_KEK to keep
          it here).
        </p>
      </Card>
    );
  }
  const source =
    area.source === "environment"
      ? `The environment (${words.variables.key}) — it decides: a key set here would not be used`
      : area.source === "portal"
        ? "This portal, sealed at rest"
        : "None yet: set one below";
  const { health } = area;
  return (
    <Card title={title} asSection>
      {area.rejected ? (
        <FormErrorBanner
          message={
            <>
              The upstream rejected the key {area.rejected.fingerprint} at{" "}
              <LocalTime iso={area.rejected.at} display="datetime" />.{" "}
              {area.source === "environment"
                ? `Replace ${words.variables.key} in the environment.`
                : "Set a new key below."}
            </>
          }
        />
      ) : null}
      <DescriptionList
        items={[
          { term: "Base URL", description: <code>{area.base_url}</code> },
          {
            term: "Key",
            description: area.key ? <code>{keyText(area.key.fingerprint, area.key.last4)}</code> : "No key",
          },
          { term: "Kept in", description: source },
          ...(area.key?.set_at
            ? [
                {
                  term: "Set",
                  description: (
                    <>
                      <LocalTime iso={area.key.set_at} display="both" /> by {area.key.set_by ?? "?"}
                    </>
                  ),
                },
              ]
            : []),
          {
            term: "Last success",
            description: <LocalTime iso={health.last_success_at} missing="None since this instance started" />,
          },
          {
            term: "Last auth failure",
            description: area.rejected ? <LocalTime iso={area.rejected.at} display="both" /> : "None",
          },
          { term: "Circuit breaker", description: BREAKER_WORDS[health.breaker.state] },
        ]}
      />
      <h3>Health (this instance)</h3>
      <HealthChart
        caption="Upstream requests over the last hour, in 5-minute spans; errors in red."
        points={health.hour_series}
        rows={[
          {
            label: "Last hour",
            requests: health.hour.requests,
            errors: health.hour.errors,
            errorRate: health.hour.error_rate,
            p50: health.hour.p50_ms,
            p95: health.hour.p95_ms,
          },
          {
            label: "Last day",
            requests: health.day.requests,
            errors: health.day.errors,
            errorRate: health.day.error_rate,
            p50: health.day.p50_ms,
            p95: health.day.p95_ms,
          },
        ]}
      />
      {area.portal_keys ? <NewKeyForm area={area} onChanged={onChanged} /> : null}
      {area.stored.length > 0 ? <StoredKeys area={area} onChanged={onChanged} /> : null}
    </Card>
  );
}

function NewKeyForm({ area, onChanged }: { area: UpstreamAreaStatus; onChanged: () => void }) {
  const toast = useToast();
  const [key, setKey] = useState("");
  const { busy, fields, failure, send } = useApiForm({ fieldNames: ["key"] });
  const [running, setRunning] = useState<"test" | "save">("save");
  const [tested, setTested] = useState<string | null>(null);
  const label = area.key ? "New key (rotate)" : "Key";

  async function run(kind: "test" | "save") {
    setRunning(kind);
    setTested(null);
    if (kind === "test") {
      const answer = await send<{ data: { fingerprint: string; last4: string | null } }>(
        `/api/admin/upstream-keys/${area.area}/test`,
        { method: "POST", body: { key } },
      );
      if (answer)
        setTested(
          `The upstream accepted the key ${keyText(answer.data.fingerprint, answer.data.last4)}. Nothing is saved yet.`,
        );
      return;
    }
    const answer = await send<{ data: { change: { new_fingerprint: string | null } } }>(
      `/api/admin/upstream-keys/${area.area}`,
      { method: "POST", body: { key } },
    );
    if (!answer) return;
    setKey("");
    toast.success(`Saved: ${AREA_WORDS[area.area].api} now uses the key ${answer.data.change.new_fingerprint}.`);
    onChanged();
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run("save");
  };

  return (
    <form onSubmit={submit} className={formStyles.form} aria-label={`${label} for ${AREA_WORDS[area.area].api}`}>
      <FormErrorBanner message={failure?.message} requestId={failure?.requestId} />
      <TextField
        name="key"
        type="password"
        label={label}
        hint="Paste the key from the upstream's dashboard. It is tested with one read before it is saved, and never shown again: only its fingerprint and last 4 characters."
        autoComplete="off"
        spellCheck={false}
        required
        value={key}
        onChange={(event) => setKey(event.target.value)}
        error={fields.key}
      />
      {tested ? <p role="status">{tested}</p> : null}
      <div className={formStyles.buttons}>
        <Button
          variant="secondary"
          loading={busy && running === "test"}
          loadingText="Testing…"
          onClick={() => void run("test")}
          disabled={key === "" || busy}
        >
          Test
        </Button>
        <Button
          type="submit"
          loading={busy && running === "save"}
          loadingText="Testing and saving…"
          disabled={key === "" || busy}
        >
          Save and switch
        </Button>
      </div>
    </form>
  );
}

function StoredKeys({ area, onChanged }: { area: UpstreamAreaStatus; onChanged: () => void }) {
  const toast = useToast();
  // The key a restore was last asked for (its button shows the progress); a failure shows above the table.
  const [restored, setRestored] = useState<string | null>(null);
  const restoring = useApiAction({
    failureOf: (error) => ({ message: error.fields?.key ?? error.message, requestId: error.requestId }),
  });
  const [removing, setRemoving] = useState<StoredKey | null>(null);
  const removal = useApiAction();

  async function restore(key: StoredKey) {
    setRestored(key.id);
    const answer = await restoring.send(`/api/admin/upstream-keys/${area.area}/${key.id}/restore`, { method: "POST" });
    if (answer === false) return;
    toast.success(`Restored: ${AREA_WORDS[area.area].api} uses the key ${key.fingerprint} again.`);
    onChanged();
  }

  // The dialog shows a failure itself (it stays open with the message); it closes on success.
  async function remove(key: StoredKey) {
    if ((await removal.send(`/api/admin/upstream-keys/${area.area}/${key.id}`, { method: "DELETE" })) === false) {
      return false;
    }
    toast.success(`Removed the key ${key.fingerprint}.`);
    onChanged();
    return true;
  }

  return (
    <>
      <h3>Keys kept in the portal</h3>
      <FormErrorBanner message={restoring.failure?.message} requestId={restoring.failure?.requestId} />
      <DataTable
        caption={`Keys kept in the portal, ${area.area} area`}
        captionHidden
        rows={area.stored}
        rowKey={(key) => key.id}
        columns={[
          {
            id: "key",
            header: "Key",
            rowHeader: true,
            priority: "primary",
            wrap: "nowrap",
            cell: (key) => <code>{keyText(key.fingerprint, key.last4)}</code>,
          },
          {
            id: "state",
            header: "State",
            priority: "primary",
            wrap: "nowrap",
            cell: (key) => (key.active ? <Badge tone="success">In use</Badge> : <Badge tone="neutral">Disabled</Badge>),
          },
          {
            id: "saved",
            header: "Saved",
            cell: (key) => (
              <>
                <LocalTime iso={key.created_at} display="both" /> by {key.created_by ?? "?"}
              </>
            ),
          },
          {
            id: "actions",
            header: "Actions",
            wrap: "nowrap",
            cell: (key) =>
              key.active ? null : (
                <>
                  <Button
                    size="sm"
                    variant="secondary"
                    loading={restoring.busy && restored === key.id}
                    onClick={() => void restore(key)}
                    aria-label={`Restore the key ${key.fingerprint}`}
                  >
                    Restore
                  </Button>{" "}
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => setRemoving(key)}
                    aria-label={`Remove the key ${key.fingerprint}`}
                  >
                    Remove
                  </Button>
                </>
              ),
          },
        ]}
      />
      {removing ? (
        <ConfirmDialog
          open
          variant="danger"
          title={`Remove the key ${removing.fingerprint}?`}
          confirmLabel="Remove key"
          busyLabel="Removing…"
          action={removal}
          onConfirm={() => remove(removing)}
          onClose={() => setRemoving(null)}
        >
          It is no longer in use. Once removed, this rotation cannot be undone any more.
        </ConfirmDialog>
      ) : null}
    </>
  );
}
