// The table contract for every list page: columns with sortable headers, and the four states a list is in.
//
// - first load (rows undefined): skeleton rows under the headers, aria-busy;
// - reloading (loading with rows): the previous rows stay, dimmed, with a thin progress bar and aria-busy;
// - empty (rows = []): the `empty` node (usually <EmptyState>) instead of the table;
// - error: <ErrorState> with a retry button instead of the table (stale rows would be misleading).
//
// No "use client" and no client-only hooks: a client page passes onSortChange and cell renderers; a server page
// can render it too, with static headers (functions cannot cross to the client, so no onSortChange there).
import { useId, type ReactNode } from "react";

import { Button } from "./button";
import { ErrorState } from "./error-state";
import { ProgressBar } from "./progress-bar";
import { SkeletonRows } from "./skeleton";
import styles from "./data-table.module.css";

export type SortDirection = "asc" | "desc";

export interface SortState<Key extends string = string> {
  by: Key;
  direction: SortDirection;
}

export interface Column<Row, Key extends string = string> {
  /** Unique within the table. */
  id: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Present when the column can sort: the key passed to onSortChange (e.g. "generated_at"). */
  sortKey?: Key;
  /** The direction of a first click on this header (default "asc"; dates usually want "desc"). */
  firstDirection?: SortDirection;
  align?: "start" | "end";
  /** "wrap" for long text such as URLs, "nowrap" for dates and badges. */
  wrap?: "wrap" | "nowrap";
  /** Render the cell as the row's header (<th scope="row">): the column that names the row. */
  rowHeader?: boolean;
}

export interface DataTableError {
  /** What failed, e.g. "The reports could not be loaded". */
  title: string;
  /** What to try; the gateway's message fits here. */
  message?: ReactNode;
  requestId?: string;
  onRetry?: () => void;
}

export interface DataTableProps<Row, Key extends string = string> {
  /** Names the table for everyone; hide it visually with captionHidden when a page heading already says it. */
  caption: string;
  captionHidden?: boolean;
  columns: ReadonlyArray<Column<Row, Key>>;
  /** undefined while nothing has loaded yet. */
  rows: readonly Row[] | undefined;
  rowKey: (row: Row) => string | number;
  sort?: SortState<Key>;
  onSortChange?: (next: SortState<Key>) => void;
  loading?: boolean;
  error?: DataTableError | null;
  /** Shown when rows is empty; say why and what to do ("No reports match. Clear the filters"). */
  empty?: ReactNode;
  skeletonRows?: number;
  /**
   * On a narrow screen (a phone), show each row as a block of "header: value" lines instead of a table wider
   * than the screen. Headers that are not plain text give no label.
   */
  stackOnNarrow?: boolean;
}

/** The sort a click on `column` asks for: the other direction if it is already sorted, else its first. */
export function nextSort<Key extends string>(
  current: SortState<Key> | undefined,
  column: Pick<Column<never, Key>, "sortKey" | "firstDirection">,
): SortState<Key> | null {
  if (!column.sortKey) return null;
  if (current?.by === column.sortKey) return { by: column.sortKey, direction: current.direction === "asc" ? "desc" : "asc" };
  return { by: column.sortKey, direction: column.firstDirection ?? "asc" };
}

export function DataTable<Row, Key extends string = string>({
  caption,
  captionHidden,
  columns,
  rows,
  rowKey,
  sort,
  onSortChange,
  loading = false,
  error,
  empty,
  skeletonRows = 5,
  stackOnNarrow = false,
}: DataTableProps<Row, Key>) {
  const captionId = useId();

  if (error) {
    return (
      <ErrorState
        title={error.title}
        requestId={error.requestId}
        action={error.onRetry ? <Button onClick={error.onRetry}>Try again</Button> : undefined}
      >
        {error.message}
      </ErrorState>
    );
  }

  if (rows && rows.length === 0 && !loading) {
    return <>{empty ?? <p>Nothing to show.</p>}</>;
  }

  const busy = loading || rows === undefined;
  return (
    <div className={styles.container} aria-busy={busy || undefined}>
      {busy ? <ProgressBar className={styles.progress} label={`Loading ${caption.toLowerCase()}`} /> : null}
      {/* Focusable so keyboard users can scroll a table wider than the screen. */}
      <div className={styles.scroller} role="region" aria-labelledby={captionId} tabIndex={0}>
        <table className={stackOnNarrow ? `${styles.table} ${styles.stacked}` : styles.table}>
          <caption id={captionId} className={captionHidden ? "visually-hidden" : styles.caption}>
            {caption}
          </caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <HeaderCell key={column.id} column={column} sort={sort} onSortChange={onSortChange} />
              ))}
            </tr>
          </thead>
          <tbody className={loading && rows ? styles.stale : undefined}>
            {rows === undefined ? (
              <SkeletonRows rows={skeletonRows} columns={columns.length} />
            ) : (
              rows.map((row) => (
                <tr key={rowKey(row)}>
                  {columns.map((column) => {
                    const className = cellClassName(column);
                    const label = stackOnNarrow && typeof column.header === "string" ? column.header : undefined;
                    return column.rowHeader ? (
                      <th key={column.id} scope="row" className={className} data-label={label}>
                        {column.cell(row)}
                      </th>
                    ) : (
                      <td key={column.id} className={className} data-label={label}>
                        {column.cell(row)}
                      </td>
                    );
                  })}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function cellClassName(column: Pick<Column<never, string>, "align" | "wrap">): string | undefined {
  return (
    [column.align === "end" ? styles.end : undefined, column.wrap ? styles[column.wrap] : undefined].filter(Boolean).join(" ") ||
    undefined
  );
}

function HeaderCell<Row, Key extends string>({
  column,
  sort,
  onSortChange,
}: {
  column: Column<Row, Key>;
  sort: SortState<Key> | undefined;
  onSortChange: ((next: SortState<Key>) => void) | undefined;
}) {
  const className = cellClassName(column);
  const sorted = column.sortKey !== undefined && sort?.by === column.sortKey;
  const ariaSort = sorted ? (sort.direction === "asc" ? "ascending" : "descending") : undefined;
  if (!column.sortKey || !onSortChange) {
    return (
      <th scope="col" className={className} aria-sort={ariaSort}>
        {column.header}
      </th>
    );
  }
  const next = nextSort(sort, column);
  return (
    <th scope="col" className={className} aria-sort={ariaSort}>
      <button
        type="button"
        className={[styles.sortButton, sorted ? styles.sorted : undefined].filter(Boolean).join(" ")}
        onClick={() => next && onSortChange(next)}
      >
        {column.header}
        <span className={styles.sortIcon} aria-hidden="true">
          {sorted ? (sort.direction === "asc" ? "▲" : "▼") : "↕"}
        </span>
      </button>
    </th>
  );
}
