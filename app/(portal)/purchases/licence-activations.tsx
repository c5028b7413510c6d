"use client";
// Below the checker's verdict: the code's licence activations (POST /api/licences/activations/search, the code in
// the body), each installed copy's domain or id with its name, item, first and last seen, its status and whether it
// counts (or who deactivated it); "Reset"
// per active one and "Reset all", each asking for a reason (kept in the audit log) in a dialog before anything is
// sent, the list read again after.
import { useState, type FormEvent } from "react";
import useSWR from "swr";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { Modal } from "@/components/ui/dialog";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { LocalTime } from "@/components/ui/local-time";
import { TextField } from "@/components/ui/text-field";
import { useToast } from "@/components/ui/toast";
import { useApiForm } from "@/components/use-api-form";
import type { CodeActivation } from "@/lib/contract/licences";
import { apiRequest, type ApiRequestError } from "@/lib/portal/api-client";

import formStyles from "../forms.module.css";
import lists from "../lists.module.css";
import styles from "./purchases.module.css";

const SEARCH_PATH = "/api/licences/activations/search";

interface CodeActivations {
  code_last4: string;
  activations: CodeActivation[];
}

/** What a reset is about: one activation, or every active one of the code. */
type ResetTarget = { kind: "one"; activation: CodeActivation } | { kind: "all"; active: number };

const instanceName = (activation: CodeActivation) =>
  `${activation.instance.value}${activation.instance.name ? ` (${activation.instance.name})` : ""}`;

export interface LicenceActivationsProps {
  /** The code as it was checked (sent in the body, never in a URL). */
  code: string;
  /** Item names the verdict knows, by id. */
  itemNames: Record<number, string>;
}

export function LicenceActivations({ code, itemNames }: LicenceActivationsProps) {
  const { data, error, isLoading, mutate } = useSWR<{ data: CodeActivations }, ApiRequestError>(
    [SEARCH_PATH, code],
    () => apiRequest<{ data: CodeActivations }>(SEARCH_PATH, { method: "POST", body: { purchase_code: code } }),
    // Nothing was rendered on the server for this code: fetch on mount (the portal's default is not to).
    { revalidateOnMount: true, revalidateOnFocus: false },
  );
  const [resetting, setResetting] = useState<ResetTarget | null>(null);
  const activations = data?.data.activations;
  const active = activations?.filter((activation) => activation.status === "active").length ?? 0;

  // Six columns, each with at most a quieter line under it (the name under the domain, whether it counts and who
  // deactivated it under the status), so that the table fits beside the navigation at a desk.
  const columns: ReadonlyArray<Column<CodeActivation>> = [
    {
      id: "instance",
      header: "Domain or id",
      rowHeader: true,
      priority: "primary",
      wrap: "wrap",
      cell: (row) => (
        <>
          <code>{row.instance.value}</code>
          {row.instance.kind === "id" ? " (id)" : ""}
          {row.instance.name ? <span className={lists.secondary}>{row.instance.name}</span> : null}
        </>
      ),
    },
    { id: "item", header: "Item", wrap: "wrap", cell: (row) => itemNames[row.item_id] ?? `Item ${row.item_id}` },
    {
      id: "first",
      header: "First seen",
      wrap: "nowrap",
      cell: (row) => <LocalTime iso={row.activated_at} display="short" />,
    },
    {
      id: "last",
      header: "Last seen",
      wrap: "nowrap",
      cell: (row) => (
        <>
          <LocalTime iso={row.last_seen_at} display="short" />{" "}
          <span className={lists.secondary}>
            <LocalTime iso={row.last_seen_at} />
          </span>
        </>
      ),
    },
    {
      id: "status",
      header: "Status",
      priority: "primary",
      wrap: "nowrap",
      cell: (row) => (
        <>
          {row.status === "active" ? (
            <Badge tone="success" mark="●">
              Active
            </Badge>
          ) : (
            <Badge tone="neutral" mark="○">
              Deactivated
            </Badge>
          )}{" "}
          <span className={lists.secondary} title={row.reason ?? undefined}>
            {row.status === "deactivated" && row.deactivated_by
              ? `by ${row.deactivated_by === "copy" ? "its copy" : row.deactivated_by === "refund" ? "a refund" : row.deactivated_by}`
              : row.counted
                ? "Counted"
                : "Not counted (never-counted domain)"}
          </span>
        </>
      ),
    },
    {
      id: "actions",
      header: <span className="visually-hidden">Actions</span>,
      label: "Actions",
      cell: (row) =>
        row.status === "active" ? (
          <Button
            size="sm"
            variant="secondary"
            aria-label={`Reset ${instanceName(row)}`}
            onClick={() => setResetting({ kind: "one", activation: row })}
          >
            Reset
          </Button>
        ) : null,
    },
  ];

  return (
    <section className={styles.activations} aria-labelledby="licence-activations-title">
      <h2 id="licence-activations-title" className={styles.activationsTitle}>
        Licence activations
      </h2>
      <DataTable
        caption="Licence activations of this code"
        captionHidden
        columns={columns}
        rows={activations}
        rowKey={(row) => row.id}
        loading={isLoading}
        error={
          error
            ? {
                title: "The activations could not be loaded",
                message: error.message,
                requestId: error.requestId,
                onRetry: () => void mutate(),
              }
            : null
        }
        empty={<p>No installed copy has activated this code.</p>}
        skeletonRows={1}
      />
      {active > 0 ? (
        <div className={formStyles.buttons}>
          <Button variant="secondary" onClick={() => setResetting({ kind: "all", active })}>
            Reset all
          </Button>
        </div>
      ) : null}
      <ResetDialog code={code} target={resetting} onClose={() => setResetting(null)} refresh={() => mutate()} />
    </section>
  );
}

function ResetDialog({
  code,
  target,
  onClose,
  refresh,
}: {
  code: string;
  target: ResetTarget | null;
  onClose: () => void;
  refresh: () => Promise<unknown>;
}) {
  const { busy, fields, failure, check, send, clear } = useApiForm({ fieldNames: ["reason"] });
  const toast = useToast();
  const close = () => {
    clear();
    onClose();
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!target) return;
    const reason = String(new FormData(event.currentTarget).get("reason") ?? "").trim();
    if (!check({ reason: reason.length >= 3 ? undefined : "Say why, in a few words: it is kept in the audit log." }))
      return;
    if (target.kind === "one") {
      const answer = await send(`/api/licences/activations/${target.activation.id}/reset`, {
        method: "POST",
        body: { reason },
        refresh,
      });
      if (answer === false) return;
      toast.success(`Reset ${instanceName(target.activation)}: its place is free.`);
    } else {
      const answer = await send<{ data: { reset: number } }>("/api/licences/reset", {
        method: "POST",
        body: { purchase_code: code, reason },
        refresh,
      });
      if (answer === false) return;
      const n = answer.data.reset;
      toast.success(`Reset ${n} activation${n === 1 ? "" : "s"} of this code.`);
    }
    close();
  };

  const title =
    target?.kind === "one"
      ? `Reset ${instanceName(target.activation)}?`
      : `Reset all ${target?.active ?? ""} active activations of this code?`;
  return (
    <Modal open={target !== null} onClose={close} title={title} dismissible={!busy}>
      <form noValidate className={formStyles.form} onSubmit={(event) => void submit(event)} aria-label="Reset">
        <p>
          {target?.kind === "one"
            ? "The copy there is no longer activated: it is told so at its next check, and its place under the limit is free for another site."
            : "Every copy of this code is no longer activated: each is told so at its next check, and every place under the limit is free."}
        </p>
        <FormErrorBanner title="Nothing was reset" message={failure?.message} requestId={failure?.requestId} />
        <TextField
          id="field-reset-reason"
          name="reason"
          label="Reason"
          hint="Kept in the audit log, e.g. “The buyer moved to a new domain”"
          maxLength={500}
          required
          error={fields.reason}
        />
        <div className={formStyles.buttons}>
          <Button type="submit" variant="danger" loading={busy} loadingText="Resetting…">
            {target?.kind === "all" ? "Reset all" : "Reset"}
          </Button>
          <Button variant="secondary" onClick={close} disabled={busy}>
            Cancel
          </Button>
        </div>
      </form>
    </Modal>
  );
}
