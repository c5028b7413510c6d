"use client";

// What the paged lists (reports, projects, audit log, purchase history) share around their toolbar and table: the
// page of rows from the API with its failure, a day range, a link back to the unfiltered list, the count said to
// screen readers, the table's sort and the page links — shown only when there is something to page through and
// the list did not fail. Links keep Back and new tabs working; a plain click moves in place.
import Link from "next/link";
import useSWR from "swr";

import { ButtonLink } from "@/components/ui/button-link";
import type { DataTableError, SortState } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { Pagination } from "@/components/ui/pagination";
import { TextField } from "@/components/ui/text-field";
import type { Page, PageMeta } from "@/lib/contract/common";
import type { SortDirection } from "@/lib/contract/values";
import type { ApiRequestError } from "@/lib/portal/api-client";
import { withChanges } from "@/lib/portal/list-params";
import type { ListUrl } from "@/lib/portal/use-list-url";

import styles from "./lists.module.css";

/** What the server's render of a list's first view brings: its key, and its page or why it has none. */
export interface InitialListPage<T> {
  /** The API query string the server rendered (the SWR key of `page`). */
  key: string;
  page?: Page<T>;
  /** Set when the server could not load the first view. */
  failure?: { title: string; message: string } | null;
}

/**
 * A list's page from `endpoint` + `key`, kept by SWR: the server's first view is used as it is (nothing fetched
 * at hydration), the previous rows stay while the next load, and a failure becomes the table's error with a retry
 * (`title` says what could not be loaded). `table` is what a DataTable of it takes.
 */
export function useListPage<T>(
  endpoint: string,
  key: string,
  initial: InitialListPage<T>,
  title: string,
  url: { pending: boolean },
) {
  const isInitialView = key === initial.key;
  const { data, error, isValidating, mutate } = useSWR<Page<T>, ApiRequestError>(`${endpoint}${key}`, {
    fallbackData: isInitialView ? initial.page : undefined,
  });
  const failure: DataTableError | null = error
    ? { title, message: error.message, requestId: error.requestId, onRetry: () => void mutate() }
    : isInitialView && !data && !isValidating && initial.failure
      ? { title: initial.failure.title, message: initial.failure.message, onRetry: () => void mutate() }
      : null;
  return {
    data,
    isValidating,
    mutate,
    failure,
    table: { rows: data?.data, loading: isValidating || url.pending, error: failure },
  };
}

export function ListPages({
  meta,
  failed,
  label,
  hrefFor,
  onPageChange,
}: {
  meta: PageMeta | undefined;
  failed: boolean;
  label: string;
  hrefFor: (page: number) => string;
  onPageChange: (page: number) => void;
}) {
  if (!meta || meta.total === 0 || failed) return null;
  return (
    <div className={styles.pagination}>
      <Pagination
        page={meta.page}
        lastPage={meta.last_page}
        total={meta.total}
        perPage={meta.per_page}
        label={label}
        hrefFor={hrefFor}
        onPageChange={onPageChange}
      />
    </div>
  );
}

/** "Clear the filters", when `shown`: a link to the list without any, followed in place (the list's URL state). */
export function ClearFilters<Q>({ url, shown, children }: { url: ListUrl<Q>; shown: boolean; children: string }) {
  if (!shown) return null;
  return (
    <p className={styles.clear}>
      <Link
        href={url.hrefFor({} as Q)}
        onNavigate={(event) => {
          event.preventDefault();
          url.push({} as Q);
        }}
      >
        {children}
      </Link>
    </p>
  );
}

/** ListPages' links and moves for a list kept in the URL: another page keeps the rest of the view. */
export function pagingOf<Q extends { page?: number }>(url: ListUrl<Q>, query: Q) {
  const at = (page: number) => withChanges(query, { page } as Partial<Q>);
  return { hrefFor: (page: number) => url.hrefFor(at(page)), onPageChange: (page: number) => url.push(at(page)) };
}

/** A DataTable's sort kept in the URL, with the list's default when the URL names none. */
export function sortingOf<Q extends { sort_by?: string; sort?: SortDirection; page?: number }>(
  url: ListUrl<Q>,
  query: Q,
  defaults: { sort_by: NonNullable<Q["sort_by"]>; sort: SortDirection },
): { sort: SortState<NonNullable<Q["sort_by"]>>; onSortChange: (next: SortState<NonNullable<Q["sort_by"]>>) => void } {
  return {
    sort: { by: query.sort_by ?? defaults.sort_by, direction: query.sort ?? defaults.sort },
    onSortChange: (next) => url.push(withChanges(query, { sort_by: next.by, sort: next.direction } as Partial<Q>)),
  };
}

/** The list's size said to screen readers once it has loaded ("12 reports"), or that it is loading. */
export function ListCount({
  loading,
  loadingText,
  total,
  one,
  many,
}: {
  loading: boolean;
  loadingText: string;
  total: number | undefined;
  one: string;
  many: string;
}) {
  return (
    <p role="status" className="visually-hidden">
      {loading ? loadingText : total !== undefined ? `${total} ${total === 1 ? one : many}` : ""}
    </p>
  );
}

/**
 * From and To, whole days in the person's time zone (named in the labels). An incomplete date (while typing) is
 * ignored; an empty one removes the bound. To cannot be set before From.
 */
export function DayRange({
  zone,
  from,
  to,
  onChange,
}: {
  zone: string;
  from: string | undefined;
  to: string | undefined;
  onChange: (name: "from" | "to", value: string | undefined) => void;
}) {
  const change = (name: "from" | "to", value: string) => {
    if (value !== "" && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return;
    onChange(name, value || undefined);
  };
  return (
    <>
      <TextField
        name="from"
        label={`From (${zone})`}
        type="date"
        value={from ?? ""}
        onChange={(event) => change("from", event.target.value)}
      />
      <TextField
        name="to"
        label={`To (${zone})`}
        type="date"
        value={to ?? ""}
        min={from}
        onChange={(event) => change("to", event.target.value)}
      />
    </>
  );
}

/** The empty state of a narrowed list: what to try, and the way back to the whole list. */
export function NoMatches({
  title,
  clearHref,
  clearLabel,
  children,
}: {
  title: string;
  clearHref: string;
  clearLabel: string;
  children: string;
}) {
  return (
    <EmptyState title={title} headingLevel={2} action={<ButtonLink href={clearHref}>{clearLabel}</ButtonLink>}>
      {children}
    </EmptyState>
  );
}
