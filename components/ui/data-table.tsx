// The table contract for every list page: columns with sortable headers, and the four states a list is in.
//
// - first load (rows undefined): skeleton rows under the headers, aria-busy;
// - reloading (loading with rows): the previous rows stay, dimmed, with a thin progress bar and aria-busy;
// - empty (rows = []): the `empty` node (usually <EmptyState>) instead of the table;
// - error: <ErrorState> with a retry button instead of the table (stale rows would be misleading).
//
// No "use client" and no client-only hooks: a client page passes onSortChange and cell renderers; a server page
// can render it too, with static headers (functions cannot cross to the client, so no onSortChange there).
//
// Below 40rem (a phone) every table folds into one compact card per row, the way GitHub's and Stripe's lists do:
// the primary cells (priority "primary": what names the row and its result or status, marked data-primary) lead
// the card on one line, every other column follows as a quiet "label value" line, and the headers give way to a
// "Sort" select (or the fixed order, "Newest first") above the cards. Nothing scrolls sideways.
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
  /**
   * "wrap" for long text such as URLs, "nowrap" for dates and badges, "truncate" for long values that only need
   * to be recognised at a desk (user agents, codes): one line with an ellipsis, the whole value in `fullText`'s
   * title (and wrapped in full on a phone's card).
   */
  wrap?: "wrap" | "nowrap" | "truncate";
  /** The whole value of a truncated cell, shown on hover (title). */
  fullText?: (row: Row) => string;
  /** Render the cell as the row's header (<th scope="row">): the column that names the row. */
  rowHeader?: boolean;
  /**
   * "primary": the column that names the row (URL, name, code) or its result/status. Always visible: on a phone
   * these cells lead each row's card; every other column folds into the card's lines.
   */
  priority?: "primary";
  /**
   * Decoration that a phone's card leaves out, such as a thumbnail beside the name: below 40rem the cell is not
   * displayed, so a lazy image in it is never fetched (a phone's list of 25 items costs no 25 pictures).
   */
  deskOnly?: boolean;
  /** The column's name as text, when `header` is not plain text (labels the card lines and the sort select). */
  label?: string;
  /** A list that cannot be re-sorted still says its order here, e.g. { direction: "desc", text: "Newest first" }. */
  fixedOrder?: { direction: SortDirection; text: string };
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
}

/** The sort a click on `column` asks for: the other direction if it is already sorted, else its first. */
export function nextSort<Key extends string>(
  current: SortState<Key> | undefined,
  column: Pick<Column<never, Key>, "sortKey" | "firstDirection">,
): SortState<Key> | null {
  if (!column.sortKey) return null;
  if (current?.by === column.sortKey)
    return { by: column.sortKey, direction: current.direction === "asc" ? "desc" : "asc" };
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
}: DataTableProps<Row, Key>) {
  const captionId = useId();
  const sortId = useId();

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
      <NarrowOrder id={sortId} columns={columns} sort={sort} onSortChange={onSortChange} />
      {/* Focusable so keyboard users can scroll a table wider than the screen. */}
      <div className={styles.scroller} role="region" aria-labelledby={captionId} tabIndex={0}>
        <table className={styles.table}>
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
                    // Primary cells lead the card unlabelled: a URL or a badge says what it is.
                    const label = column.priority === "primary" ? undefined : columnLabel(column);
                    const content =
                      column.wrap === "truncate" ? (
                        <span className={styles.truncated} title={column.fullText?.(row)}>
                          {column.cell(row)}
                        </span>
                      ) : (
                        column.cell(row)
                      );
                    const Cell = column.rowHeader ? "th" : "td";
                    return (
                      <Cell
                        key={column.id}
                        scope={column.rowHeader ? "row" : undefined}
                        className={className}
                        data-label={label || undefined}
                        data-primary={column.priority === "primary" ? "" : undefined}
                        data-desk-only={column.deskOnly ? "" : undefined}
                      >
                        {content}
                      </Cell>
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
    [column.align === "end" ? styles.end : undefined, column.wrap ? styles[column.wrap] : undefined]
      .filter(Boolean)
      .join(" ") || undefined
  );
}

/** The column's name as text: its label, else its header when that is a string. */
export function columnLabel(column: Pick<Column<never, string>, "header" | "label">): string {
  return column.label ?? (typeof column.header === "string" ? column.header : "");
}

/** The choices of the phone's "Sort" select: each sortable column in both directions, its first direction first. */
export function sortChoices<Key extends string>(
  columns: ReadonlyArray<Pick<Column<never, Key>, "header" | "label" | "sortKey" | "firstDirection">>,
): Array<{ value: string; label: string; sort: SortState<Key> }> {
  return columns.flatMap((column) => {
    if (!column.sortKey) return [];
    const name = columnLabel(column);
    const first = column.firstDirection ?? "asc";
    const directions: SortDirection[] = first === "asc" ? ["asc", "desc"] : ["desc", "asc"];
    return directions.map((direction) => ({
      value: `${column.sortKey}:${direction}`,
      label: `${name} ${direction === "asc" ? "↑ ascending" : "↓ descending"}`,
      sort: { by: column.sortKey as Key, direction },
    }));
  });
}

/**
 * Shown only on a phone, where the headers give way to cards: a "Sort" select when the list can be re-sorted,
 * else the list's fixed order ("Newest first"). Nothing when the table has neither.
 */
function NarrowOrder<Row, Key extends string>({
  id,
  columns,
  sort,
  onSortChange,
}: {
  id: string;
  columns: ReadonlyArray<Column<Row, Key>>;
  sort: SortState<Key> | undefined;
  onSortChange: ((next: SortState<Key>) => void) | undefined;
}) {
  const choices = onSortChange ? sortChoices(columns) : [];
  if (onSortChange && choices.length > 0) {
    return (
      <div className={styles.narrowOrder}>
        <label htmlFor={id}>Sort</label>
        <select
          id={id}
          className={styles.sortSelect}
          value={sort ? `${sort.by}:${sort.direction}` : ""}
          onChange={(event) => {
            const choice = choices.find((option) => option.value === event.target.value);
            if (choice) onSortChange(choice.sort);
          }}
        >
          {sort ? null : <option value="">Default order</option>}
          {choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </div>
    );
  }
  const fixed = columns.find((column) => column.fixedOrder);
  if (fixed?.fixedOrder) {
    return <p className={styles.narrowOrder}>{fixed.fixedOrder.text}</p>;
  }
  return null;
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
  const primary = column.priority === "primary" ? "" : undefined;
  const sorted = column.sortKey !== undefined && sort?.by === column.sortKey;
  const direction = sorted ? sort.direction : column.fixedOrder?.direction;
  const ariaSort = direction ? (direction === "asc" ? "ascending" : "descending") : undefined;
  if (!column.sortKey || !onSortChange) {
    return (
      <th scope="col" className={className} aria-sort={ariaSort} data-primary={primary}>
        {column.header}
        {direction ? (
          <span className={styles.orderNote}>
            {" "}
            <span aria-hidden="true">{direction === "asc" ? "▲" : "▼"}</span>
            {column.fixedOrder ? ` ${column.fixedOrder.text}` : null}
          </span>
        ) : null}
      </th>
    );
  }
  const next = nextSort(sort, column);
  return (
    <th scope="col" className={className} aria-sort={ariaSort} data-primary={primary}>
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
