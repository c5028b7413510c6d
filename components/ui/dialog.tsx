"use client";
// A modal built on the native <dialog> and showModal(): the browser traps focus, makes the page behind it
// inert and closes it on Escape. Controlled by `open`; every way of closing goes through onClose, and focus
// returns to the element that opened it.
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode, type RefObject } from "react";

import { Button } from "./button";
import styles from "./dialog.module.css";

export interface ModalProps {
  open: boolean;
  /** Called when the person closes it (Escape, the × button); set open to false in it. */
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** Buttons at the bottom, e.g. Cancel and Confirm. */
  footer?: ReactNode;
  size?: "md" | "lg";
  /** False while something runs that must not be abandoned: Escape and × do nothing. */
  dismissible?: boolean;
  /** What gets focus when it opens; the browser picks the first focusable element otherwise. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Id of the element that describes the dialog (read with the title when it opens). */
  describedBy?: string;
  /** Extra keys while it is open (e.g. arrows in a lightbox); Escape is already handled. */
  onKeyDown?: (event: KeyboardEvent<HTMLDialogElement>) => void;
}

export function Modal({
  open,
  onClose,
  title,
  children,
  footer,
  size = "md",
  dismissible = true,
  initialFocus,
  describedBy,
  onKeyDown,
}: ModalProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<Element | null>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      openerRef.current = document.activeElement;
      dialog.showModal();
      initialFocus?.current?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open, initialFocus]);

  // Browsers restore focus on close too, but not all of them, and not when the dialog unmounts.
  useEffect(() => {
    if (open) return;
    const opener = openerRef.current;
    openerRef.current = null;
    if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
  }, [open]);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const onCancel = (event: Event) => {
      event.preventDefault(); // we close it ourselves, through `open`
      if (dismissible) onClose();
    };
    // Chrome lets a second Escape close a dialog even when cancel is prevented; keep state and screen in step.
    const onNativeClose = () => {
      if (!open) return;
      if (dismissible) onClose();
      else dialog.showModal();
    };
    dialog.addEventListener("cancel", onCancel);
    dialog.addEventListener("close", onNativeClose);
    return () => {
      dialog.removeEventListener("cancel", onCancel);
      dialog.removeEventListener("close", onNativeClose);
    };
  }, [open, dismissible, onClose]);

  return (
    <dialog
      ref={dialogRef}
      className={[styles.dialog, size === "lg" ? styles.lg : undefined].filter(Boolean).join(" ")}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      onKeyDown={onKeyDown}
    >
      {open ? (
        <div className={styles.inner}>
          <div className={styles.header}>
            <h2 id={titleId} className={styles.title}>
              {title}
            </h2>
            <Button variant="ghost" size="sm" iconOnly aria-label="Close" disabled={!dismissible} onClick={onClose}>
              <span aria-hidden="true">✕</span>
            </Button>
          </div>
          <div className={styles.body}>{children}</div>
          {footer ? <div className={styles.footer}>{footer}</div> : null}
        </div>
      ) : null}
    </dialog>
  );
}
