"use client";
// "Are you sure?" that tells the truth. The confirm button shows progress while the caller's request (its
// useApiAction) is out; if it fails, the dialog stays open and shows why, with the request id (the caller's toast
// is for success only). The danger variant starts on Cancel, so a stray Enter does not destroy anything.
import { useId, useRef, type ReactNode } from "react";

import type { ApiAction } from "@/components/use-api-form";

import { Button } from "./button";
import { Modal } from "./dialog";
import { FormErrorBanner } from "./form-error-banner";

export interface ConfirmDialogProps {
  open: boolean;
  onClose: () => void;
  /** A question naming the thing, e.g. "Delete the report for https://example.com?" */
  title: ReactNode;
  /** What will happen, naming what goes, e.g. "The report for https://example.com is deleted for everyone." */
  children: ReactNode;
  /** The verb and the thing, e.g. "Delete report". */
  confirmLabel: string;
  /** Shown while running, e.g. "Deleting…". */
  busyLabel?: string;
  cancelLabel?: string;
  variant?: "default" | "danger";
  /** The request's state: busy while it is out, and the failure the dialog shows. */
  action: Pick<ApiAction, "busy" | "failure" | "clear">;
  /** Does the work through `action`; resolves to true when it really succeeded (then the dialog closes). */
  onConfirm: () => Promise<boolean>;
}

export function ConfirmDialog({
  open,
  onClose,
  title,
  children,
  confirmLabel,
  busyLabel,
  cancelLabel = "Cancel",
  variant = "default",
  action: { busy, failure, clear },
  onConfirm,
}: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const descriptionId = useId();

  const close = () => {
    if (busy) return;
    clear();
    onClose();
  };

  const confirm = async () => {
    if (await onConfirm()) onClose();
  };

  return (
    <Modal
      open={open}
      onClose={close}
      title={title}
      dismissible={!busy}
      describedBy={descriptionId}
      initialFocus={variant === "danger" ? cancelRef : confirmRef}
      footer={
        <>
          <Button ref={cancelRef} variant="secondary" disabled={busy} onClick={close}>
            {cancelLabel}
          </Button>
          <Button
            ref={confirmRef}
            variant={variant === "danger" ? "danger" : "primary"}
            loading={busy}
            loadingText={busyLabel}
            onClick={() => void confirm()}
          >
            {confirmLabel}
          </Button>
        </>
      }
    >
      <div id={descriptionId}>{children}</div>
      <FormErrorBanner title="That did not work" message={failure?.message} requestId={failure?.requestId} />
    </Modal>
  );
}
