"use client";
// A list's search and filters. At a desk (40rem and wider) the filters sit inline in the toolbar; on a phone
// they fold behind a "Filters (N)" button (N: the filters that differ from their default) that opens them in a
// dialog, so the list, not the filters, fills the first screen. The search box stays in view on both. The fields
// are rendered once, in one place or the other, so labels, ids and the URL state (the one truth) stay single.
//
// Before hydration the server cannot know the width: it renders the filters inline, and CSS hides them below
// 40rem (and the button above it), so nothing moves when the browser takes over.
import { useState, useSyncExternalStore, type ReactNode } from "react";

import { Button } from "./button";
import { Modal } from "./dialog";
import styles from "./filters-sheet.module.css";
import layoutStyles from "./layout.module.css";

/** The width below which the filters fold (the same 40rem as the tables' cards). */
export const NARROW_QUERY = "(max-width: 40rem)";

function subscribeToNarrow(onChange: () => void): () => void {
  const query = window.matchMedia(NARROW_QUERY);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** True on a phone-width screen; false on the server and during hydration (the CSS covers that moment). */
export function useNarrow(): boolean {
  return useSyncExternalStore(
    subscribeToNarrow,
    () => window.matchMedia(NARROW_QUERY).matches,
    () => false,
  );
}

/** "Filters (2)": the button's text and accessible name. */
export function filtersButtonLabel(activeCount: number): string {
  return `Filters (${activeCount})`;
}

export interface FiltersSheetProps {
  /** Names the toolbar, e.g. "Search and filters". */
  label: string;
  /** How many filters differ from their default (see countActiveFilters). */
  activeCount: number;
  /** The search box: always in view. */
  search?: ReactNode;
  /** The filter fields (and the page size): inline at a desk, in the sheet on a phone. */
  children: ReactNode;
  /** Clears every filter (shown in the sheet when some are set). */
  onClear?: () => void;
  /**
   * The sheet's closing button, e.g. "Show 14 reports"; "Show results" when left out. null for fields that do not
   * apply as they change (a plain GET form applies with its own submit button).
   */
  showLabel?: string | null;
}

export function FiltersSheet({
  label,
  activeCount,
  search,
  children,
  onClear,
  showLabel = "Show results",
}: FiltersSheetProps) {
  const narrow = useNarrow();
  const [open, setOpen] = useState(false);

  // Turning a tablet or widening the window puts the fields back inline; the sheet has nothing left to hold
  // (and must not pop up again when the window narrows).
  if (!narrow && open) setOpen(false);

  const clear =
    onClear && activeCount > 0 ? (
      <Button variant="secondary" onClick={onClear}>
        Clear filters
      </Button>
    ) : null;
  const show =
    showLabel === null ? null : (
      <Button variant="primary" onClick={() => setOpen(false)}>
        {showLabel}
      </Button>
    );

  return (
    <div className={`${layoutStyles.toolbar} ${styles.toolbar}`} role="group" aria-label={label}>
      {search}
      {narrow ? null : <div className={styles.inline}>{children}</div>}
      <div className={styles.narrowOnly}>
        <Button variant="secondary" aria-haspopup="dialog" onClick={() => setOpen(true)}>
          {filtersButtonLabel(activeCount)}
        </Button>
      </div>
      <Modal
        open={open && narrow}
        onClose={() => setOpen(false)}
        title="Filters"
        footer={
          clear || show ? (
            <>
              {clear}
              {show}
            </>
          ) : undefined
        }
      >
        {/* Each change applies as it does inline: at once (to the URL and the list behind), or by the form's button. */}
        <div className={styles.sheetFields}>{children}</div>
      </Modal>
    </div>
  );
}
