"use client";
// Toasts: short, truthful notes about what just happened. The caller decides the text, and says "Report
// deleted" only after the gateway said so. At most three show at once (the oldest leaves for a new one), and a
// repeat is counted on the toast already shown ("×2") rather than stacked: see toast-queue.ts. Each has a close
// button. On phones they sit at the bottom, off the top bar and off each page's own action at its top, unless the
// control just used is in the screen's lower half: then under the top bar (edgeAwayFrom). The page ends with room
// enough to scroll its last button up from under them.
//
// A success that can be taken back carries an Undo button (Gmail's and Linear's pattern, instead of asking first):
// it stays UNDO_VISIBLE_MS, and its result is a toast of its own.
//
// Two live regions exist from the first render (screen readers ignore regions that appear together with
// their text): role="status" (polite) for successes, role="alert" (assertive) for errors. Successes leave
// after a few seconds unless hovered or focused; errors stay until closed, so nobody misses them.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";

import { Button } from "./button";
import styles from "./toast.module.css";

import { dismissToast, pushToast, type ToastEntry, type ToastKind } from "./toast-queue";

export type { ToastKind };

export interface ToastApi {
  /** `undo` takes the action back and resolves to the note saying so; it throws (an Error) when it could not. */
  success: (message: string, options?: { undo?: () => Promise<string> }) => void;
  error: (message: string) => void;
  dismiss: (id: number) => void;
}

const ToastContext = createContext<ToastApi | null>(null);

const SUCCESS_VISIBLE_MS = 6000;
/** Long enough to notice a mistake and reach the button. */
const UNDO_VISIBLE_MS = 10_000;

/**
 * Where on a phone's screen the toasts go: away from what the person just used. That is the focused control, or
 * where the last tap landed (Safari does not focus a tapped button): in the lower half, the toasts go to the top
 * (under the top bar); otherwise to the bottom. A control in a dialog says nothing of the page: the dialog is
 * closing, and focus goes back to its opener, most often a page's own action at its top, so the bottom it is.
 */
function edgeAwayFrom(lastTapY: number | null): "top" | "bottom" {
  if (document.querySelector("dialog[open]")) return "bottom";
  const focused = document.activeElement;
  const y = focused && focused !== document.body ? focused.getBoundingClientRect().bottom : lastTapY;
  return y !== null && y > window.innerHeight / 2 ? "top" : "bottom";
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastEntry[]>([]);
  const [edge, setEdge] = useState<"top" | "bottom">("bottom");
  const nextId = useRef(1);
  const lastTapY = useRef<number | null>(null);

  useEffect(() => {
    const remember = (event: PointerEvent) => (lastTapY.current = event.clientY);
    document.addEventListener("pointerdown", remember, { capture: true, passive: true });
    return () => document.removeEventListener("pointerdown", remember, { capture: true });
  }, []);

  const dismiss = useCallback((id: number) => setToasts((list) => dismissToast(list, id)), []);
  const push = useCallback((kind: ToastKind, message: string, undo?: () => Promise<string>) => {
    const id = nextId.current++;
    setEdge(edgeAwayFrom(lastTapY.current));
    setToasts((list) => pushToast(list, { id, kind, message, undo }));
  }, []);
  const undo = useCallback(
    async (toast: ToastEntry) => {
      dismiss(toast.id);
      try {
        push("success", await toast.undo!());
      } catch (failure) {
        push("error", `Not undone. ${failure instanceof Error ? failure.message : String(failure)}`);
      }
    },
    [dismiss, push],
  );
  const api = useMemo<ToastApi>(
    () => ({
      success: (message, options) => push("success", message, options?.undo),
      error: (message) => push("error", message),
      dismiss,
    }),
    [push, dismiss],
  );

  return (
    <ToastContext value={api}>
      {children}
      <section aria-label="Notifications" className={styles.viewport} data-edge={edge}>
        <div role="status" aria-live="polite" className={styles.region}>
          {toasts
            .filter((toast) => toast.kind === "success")
            .map((toast) => (
              <ToastCard key={toast.id} toast={toast} onDismiss={dismiss} onUndo={undo} />
            ))}
        </div>
        <div role="alert" aria-live="assertive" className={styles.region}>
          {toasts
            .filter((toast) => toast.kind === "error")
            .map((toast) => (
              <ToastCard key={toast.id} toast={toast} onDismiss={dismiss} />
            ))}
        </div>
      </section>
    </ToastContext>
  );
}

/** Show a toast from any client component under <ToastProvider>. */
export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error("useToast() needs a <ToastProvider> above it (put one in the portal layout).");
  return api;
}

function ToastCard({
  toast,
  onDismiss,
  onUndo,
}: {
  toast: ToastEntry;
  onDismiss: (id: number) => void;
  onUndo?: (toast: ToastEntry) => Promise<void>;
}) {
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    if (toast.kind !== "success" || paused) return;
    const timer = setTimeout(() => onDismiss(toast.id), toast.undo ? UNDO_VISIBLE_MS : SUCCESS_VISIBLE_MS);
    return () => clearTimeout(timer);
    // shownAt: a repeat of the message starts the time again.
  }, [toast.id, toast.kind, toast.shownAt, toast.undo, paused, onDismiss]);

  return (
    <div
      className={`${styles.toast} ${styles[toast.kind]}`}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <p className={styles.message}>
        {toast.kind === "error" ? <span className="visually-hidden">Error: </span> : null}
        {toast.message}
        {toast.count > 1 ? (
          <span className={styles.count}>
            <span aria-hidden="true"> ×{toast.count}</span>
            <span className="visually-hidden"> ({toast.count} times)</span>
          </span>
        ) : null}
      </p>
      {toast.undo && onUndo ? (
        <Button variant="secondary" size="sm" onClick={() => void onUndo(toast)}>
          Undo
        </Button>
      ) : null}
      <Button
        variant="ghost"
        size="sm"
        iconOnly
        aria-label={`Dismiss: ${toast.message}`}
        onClick={() => onDismiss(toast.id)}
      >
        <span aria-hidden="true">✕</span>
      </Button>
    </div>
  );
}
