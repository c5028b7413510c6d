"use client";
// Account → Security: the person's passkeys. The list (name, added, last used), adding one under a name (the
// browser asks the device, lib/portal/passkey-browser.ts), renaming one, removing one after a confirm. Adding one
// is an enrolment: the page is rendered again, so that a person the policy held to enrolment is let go.
import { useRouter } from "next/navigation";
import { useId, useState, type FormEvent } from "react";
import useSWR from "swr";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type Column } from "@/components/ui/data-table";
import { Modal } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { FormErrorBanner } from "@/components/ui/form-error-banner";
import { LocalTime } from "@/components/ui/local-time";
import { TextField } from "@/components/ui/text-field";
import { useToast } from "@/components/ui/toast";
import { useApiAction, useApiForm } from "@/components/use-api-form";
import type { FactorSummary } from "@/lib/contract/factors";
import type { PasskeyOutput } from "@/lib/contract/passkeys";
import { MAX_PASSKEYS_PER_USER } from "@/lib/contract/values";
import { ApiRequestError } from "@/lib/portal/api-client";
import { register } from "@/lib/portal/passkey-browser";

import formStyles from "../../forms.module.css";

function passkeyColumns(
  onRename: (passkey: PasskeyOutput) => void,
  onRemove: (passkey: PasskeyOutput) => void,
): Column<PasskeyOutput>[] {
  return [
    { id: "name", header: "Name", rowHeader: true, priority: "primary", wrap: "wrap", cell: (p) => p.name },
    {
      id: "created",
      header: "Added",
      wrap: "nowrap",
      fixedOrder: { direction: "asc", text: "Oldest first" },
      cell: (p) => <LocalTime iso={p.created_at} display="date" />,
    },
    {
      id: "used",
      header: "Last used",
      wrap: "nowrap",
      cell: (p) => (p.last_used_at ? <LocalTime iso={p.last_used_at} /> : "Never"),
    },
    {
      id: "actions",
      header: "Actions",
      priority: "primary",
      wrap: "nowrap",
      cell: (p) => (
        <>
          <Button size="sm" variant="secondary" aria-label={`Rename ${p.name}`} onClick={() => onRename(p)}>
            Rename
          </Button>{" "}
          <Button size="sm" variant="secondary" aria-label={`Remove ${p.name}`} onClick={() => onRemove(p)}>
            Remove
          </Button>
        </>
      ),
    },
  ];
}

export function PasskeysSection({ summary }: { summary: FactorSummary }) {
  // Fetched when the page opens: the server rendered no first list (the portal's default waits for one).
  const { data, error, isValidating, mutate } = useSWR<{ data: PasskeyOutput[] }, ApiRequestError>(
    "/api/auth/passkeys",
    { revalidateOnMount: true },
  );
  const [renaming, setRenaming] = useState<PasskeyOutput | null>(null);
  const [removing, setRemoving] = useState<PasskeyOutput | null>(null);
  const removal = useApiAction();
  const toast = useToast();
  const router = useRouter();
  const count = data?.data.length ?? summary.passkeys;

  return (
    <Card title="Passkeys" asSection>
      <p>
        A passkey signs you in with your device&apos;s screen lock (a fingerprint, your face or a PIN) instead of a
        password, and serves as the second step after one. Add one on each device you use, up to {MAX_PASSKEYS_PER_USER}
        .
      </p>
      {count < MAX_PASSKEYS_PER_USER ? (
        <AddPasskeyForm
          onAdded={async (passkey) => {
            await mutate();
            toast.success(`Added the passkey ${passkey.name}.`);
            router.refresh();
          }}
        />
      ) : (
        <p>You have {MAX_PASSKEYS_PER_USER} passkeys, the most one person may have: remove one to add another.</p>
      )}
      <DataTable
        caption="Your passkeys"
        columns={passkeyColumns(setRenaming, setRemoving)}
        rows={data?.data}
        rowKey={(p) => p.id}
        loading={isValidating}
        empty={<EmptyState title="No passkeys yet">Add one above to sign in with this device.</EmptyState>}
        error={
          error
            ? {
                title: "Your passkeys could not be loaded",
                message: error.message,
                requestId: error.requestId,
                onRetry: () => void mutate(),
              }
            : null
        }
      />
      <RenameDialog
        passkey={renaming}
        onClose={() => setRenaming(null)}
        onRenamed={async (passkey) => {
          await mutate();
          toast.success(`Renamed to ${passkey.name}.`);
        }}
      />
      <ConfirmDialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        title={`Remove the passkey ${removing?.name ?? ""}?`}
        confirmLabel="Remove passkey"
        busyLabel="Removing…"
        variant="danger"
        action={removal}
        onConfirm={async () => {
          if (!removing) return false;
          const removed = await removal.send(`/api/auth/passkeys/${removing.id}`, {
            method: "DELETE",
            refresh: () => mutate(),
          });
          if (removed === false) return false;
          toast.success(`Removed the passkey ${removing.name}.`);
          router.refresh();
          return true;
        }}
      >
        {removing?.name ?? "This passkey"} no longer signs you in to Gatehouse. Remove it from the device too (its
        passwords or passkeys settings).
      </ConfirmDialog>
    </Card>
  );
}

function AddPasskeyForm({ onAdded }: { onAdded: (passkey: PasskeyOutput) => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [nameError, setNameError] = useState<string | undefined>();
  const [failure, setFailure] = useState<ApiRequestError | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get("name") ?? "").trim();
    setFailure(null);
    setNameError(name ? undefined : "Name the passkey, such as Work laptop, to tell it from your others.");
    if (!name) return;
    setBusy(true);
    try {
      const passkey = await register(name);
      form.reset();
      await onAdded(passkey);
    } catch (thrown) {
      if (!(thrown instanceof ApiRequestError)) throw thrown;
      if (thrown.fields?.name) setNameError(thrown.fields.name);
      else setFailure(thrown);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form noValidate className={formStyles.form} onSubmit={(event) => void submit(event)} aria-label="Add a passkey">
      <FormErrorBanner title="No passkey was added" message={failure?.message} requestId={failure?.requestId} />
      <TextField
        id="passkey-name"
        name="name"
        label="Passkey name"
        hint="Say which device holds it, such as Work laptop or Phone."
        autoComplete="off"
        maxLength={60}
        required
        error={nameError}
      />
      <div>
        <Button type="submit" variant="primary" loading={busy} loadingText="Waiting for your device…">
          Add a passkey
        </Button>
      </div>
    </form>
  );
}

function RenameDialog({
  passkey,
  onClose,
  onRenamed,
}: {
  passkey: PasskeyOutput | null;
  onClose: () => void;
  onRenamed: (passkey: PasskeyOutput) => Promise<void>;
}) {
  const formId = useId();
  const { busy, fields, failure, check, send, clear } = useApiForm({ fieldNames: ["name"] });
  const close = () => {
    clear();
    onClose();
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!passkey) return;
    const name = String(new FormData(event.currentTarget).get("name") ?? "").trim();
    if (!check({ name: name ? undefined : "Enter a name for the passkey." })) return;
    const answer = await send<{ data: PasskeyOutput }>(`/api/auth/passkeys/${passkey.id}`, {
      method: "PATCH",
      body: { name },
    });
    if (answer === false) return;
    await onRenamed(answer.data);
    close();
  };

  return (
    <Modal
      open={passkey !== null}
      onClose={close}
      title={`Rename the passkey ${passkey?.name ?? ""}`}
      dismissible={!busy}
      footer={
        <>
          <Button variant="secondary" disabled={busy} onClick={close}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant="primary" loading={busy} loadingText="Saving…">
            Save name
          </Button>
        </>
      }
    >
      {passkey ? (
        <form id={formId} noValidate className={formStyles.form} onSubmit={(event) => void submit(event)}>
          <FormErrorBanner title="The name was not changed" message={failure?.message} requestId={failure?.requestId} />
          <TextField
            id="passkey-new-name"
            name="name"
            label="New name"
            defaultValue={passkey.name}
            autoComplete="off"
            maxLength={60}
            required
            error={fields.name}
          />
        </form>
      ) : null}
    </Modal>
  );
}
