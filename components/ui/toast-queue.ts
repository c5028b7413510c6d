// The toasts' queue, as pure functions (the provider in toast.tsx keeps it in state): at most MAX_TOASTS at once,
// the oldest leaving for a new one; a message already shown is not shown twice but counted ("×2"), and its
// `shownAt` moves on, so a success toast's timer starts again. A toast with an Undo is never merged: each undoes
// its own action.

export type ToastKind = "success" | "error";

export interface ToastEntry {
  id: number;
  kind: ToastKind;
  message: string;
  /** How many times this message was sent while shown (1 at first). */
  count: number;
  /** Bumped by every repeat: the timer that hides a success toast restarts when it changes. */
  shownAt: number;
  /** Undoes the action the toast reports; resolves to the note saying so. */
  undo?: () => Promise<string>;
}

/** More than three notes at once is a pile nobody reads, and on a phone it covers the page. */
export const MAX_TOASTS = 3;

/**
 * The queue after `message` is sent: a repeat of a shown toast (same kind, same text) counts on it; otherwise a
 * new toast with `id` goes last and, past MAX_TOASTS, the oldest goes.
 */
export function pushToast(
  list: readonly ToastEntry[],
  toast: { id: number; kind: ToastKind; message: string; undo?: () => Promise<string> },
  max = MAX_TOASTS,
): ToastEntry[] {
  const same = toast.undo
    ? undefined
    : list.find((entry) => !entry.undo && entry.kind === toast.kind && entry.message === toast.message);
  if (same)
    return list.map((entry) =>
      entry === same ? { ...entry, count: entry.count + 1, shownAt: entry.shownAt + 1 } : entry,
    );
  return [...list, { ...toast, count: 1, shownAt: 0 }].slice(-max);
}

/** The queue without the toast `id` (closed, or timed out). */
export function dismissToast(list: readonly ToastEntry[], id: number): ToastEntry[] {
  return list.filter((entry) => entry.id !== id);
}
