"use client";
// "Are you sure?" that tells the truth. The confirm button shows progress while onConfirm runs; if it throws,
// the dialog stays open and shows why (the caller's toast is for success only, after it resolves). The
// danger variant starts on Cancel, so a stray Enter does not destroy anything.
import { useId, useRef, useState, type ReactNode } from "react";

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
  /**
   * Does the work. Resolve when it really succeeded (then the dialog closes); throw an Error whose message
   * says what failed and what to try when it did not.
   */
  onConfirm: () => Promise<void>;
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
  onConfirm,
}: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const descriptionId = useId();

  const close = () => {
    if (busy) return;
    setFailure(null);
    onClose();
  };

  const confirm = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await onConfirm();
      setBusy(false);
      onClose();
    } catch (error) {
      setBusy(false);
      setFailure(error instanceof Error && error.message ? error.message : "It did not work. Try again.");
    }
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
      {failure ? <FormErrorBanner title="That did not work" message={failure} /> : null}
    </Modal>
  );
}
