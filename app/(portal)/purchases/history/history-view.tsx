"use client";
// The purchase history in the browser: filters and pages in the URL (history API), rows from
// /api/purchases/history. A full code searched for stays in this component and in the body of a POST to
// /api/purchases/history/search — never in a URL, the page's or the API's (see lib/portal/purchase-history-params.ts);
// its CSV is fetched the same way and saved from memory.
import { useState, type FormEvent } from "react";
import useSWR from "swr";

import { Button } from "@/components/ui/button";
import { ButtonLink } from "@/components/ui/button-link";
import { buttonClassName } from "@/components/ui/button-styles";
import { DataTable, type DataTableError } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { usePersonTimeZone } from "@/components/person-time-zone";
import { PerPageSelect } from "@/components/ui/per-page-select";
import { SearchField } from "@/components/ui/search-field";
import { SelectField } from "@/components/ui/select-field";
import { TextField } from "@/components/ui/text-field";
import { FiltersSheet } from "@/components/ui/filters-sheet";
import type { BulkJobSummary, PurchaseHistoryEntry } from "@/lib/contract/purchases";
import type { Page } from "@/lib/contract/common";
import { apiRequest, ApiRequestError, swrFetcher } from "@/lib/portal/api-client";
import { listFilters, withChanges } from "@/lib/portal/list-params";
import {
  OUTCOME_LABELS,
  HISTORY_SEARCH_CSV_PATH,
  HISTORY_SEARCH_PATH,
  historyApiPath,
  historyCsvPath,
  historyQueryString,
  historySearchBody,
  parseHistoryParams,
  readTicket,
  type HistoryViewQuery,
} from "@/lib/portal/purchase-history-params";
import {
  DEFAULT_PER_PAGE,
  PURCHASE_OUTCOMES,
  type PurchaseCodeFormat,
  type PurchaseOutcome,
} from "@/lib/contract/values";
import { useListUrl } from "@/lib/portal/use-list-url";
import { purchaseCodeLast4 } from "@/lib/contract/purchase-code";
import { normalisePurchaseCode } from "@/lib/purchases/normalise";

import { DayRange, ListPages, pagingOf } from "../../list-pages";
import { columns } from "./history-columns";
import historyStyles from "./history.module.css";

export interface ItemOption {
  id: number;
  name: string;
}

const OUTCOME_OPTIONS = PURCHASE_OUTCOMES.map((outcome) => ({ value: outcome, label: OUTCOME_LABELS[outcome] }));

export interface HistoryViewProps {
  /** The API path of the view the server rendered, and its rows. */
  initialKey: string;
  initialPage: Page<PurchaseHistoryEntry>;
  /** The seller's items for the item filter; null: an item id field instead. */
  items: ItemOption[] | null;
  /** Whether item names link to the portal's item pages. */
  linkItems: boolean;
  /** PURCHASE_CODE_FORMAT: a searched code is read as the server reads it. */
  codeFormat: PurchaseCodeFormat;
}

// The history's filters, named once: "Filters (N)", the filtered state and Clear read them (the code search is
// kept in the page, not the URL, and counts apart).
const FILTERS = listFilters<HistoryViewQuery>(["outcome", "item_id", "user", "ticket", "from", "to"]);

export function HistoryView({ initialKey, initialPage, items, linkItems, codeFormat }: HistoryViewProps) {
  const url = useListUrl<HistoryViewQuery>(parseHistoryParams, historyQueryString, "shallow");
  const { query } = url;
  const { zone } = usePersonTimeZone();
  const [code, setCode] = useState("");
  const [codeText, setCodeText] = useState("");
  const [codeError, setCodeError] = useState<string | undefined>();

  // With a code: the search's path and body as the key, fetched by POST; without: the list's path.
  const key: string | [string, string] = code
    ? [HISTORY_SEARCH_PATH, JSON.stringify(historySearchBody(query, code, zone))]
    : historyApiPath(query, zone);
  const { data, error, isValidating, mutate } = useSWR<Page<PurchaseHistoryEntry>, ApiRequestError>(
    key,
    (requested: string | [string, string]) =>
      typeof requested === "string"
        ? swrFetcher<Page<PurchaseHistoryEntry>>(requested)
        : apiRequest<Page<PurchaseHistoryEntry>>(requested[0], { method: "POST", body: JSON.parse(requested[1]) }),
    { fallbackData: key === initialKey ? initialPage : undefined },
  );
  // Bulk rows link to their job while it is kept (7 days) and this user may open it.
  const hasBulkRows = Boolean(data?.data.some((row) => row.source === "bulk"));
  const { data: jobs } = useSWR<{ data: BulkJobSummary[] }>(hasBulkRows ? "/api/purchases/bulk" : null, {
    revalidateOnMount: true,
  });
  const jobIds = new Set(jobs?.data.map((job) => job.id));

  const codeRefused = error?.status === 400 && error.fields?.code !== undefined;
  const failure: DataTableError | null =
    error && !codeRefused
      ? {
          title: "The history could not be loaded",
          message: error.message,
          requestId: error.requestId,
          onRetry: () => void mutate(),
        }
      : null;
  const filtered = FILTERS.filtered(query) || Boolean(code);

  const searchCode = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const raw = codeText;
    if (raw.trim() === "") {
      setCodeError(undefined);
      setCode("");
      return;
    }
    const cleaned = normalisePurchaseCode(raw, codeFormat);
    if (!cleaned.ok) {
      setCodeError(cleaned.reason);
      return;
    }
    setCodeError(undefined);
    setCode(cleaned.code);
    url.push(withChanges(query, {}));
  };

  const clearAll = () => {
    setCode("");
    setCodeText("");
    setCodeError(undefined);
    url.push({});
  };

  return (
    // Not a landmark of its own: the table's region already bears the name (axe: landmark-unique).
    <section>
      <FiltersSheet
        label="Filters"
        activeCount={FILTERS.count(query)}
        onClear={() => url.push(FILTERS.cleared(query))}
        showLabel={data ? `Show ${data.meta.total} ${data.meta.total === 1 ? "check" : "checks"}` : undefined}
      >
        <SelectField
          name="outcome"
          label="Outcome"
          emptyOption="All outcomes"
          options={OUTCOME_OPTIONS}
          value={query.outcome ?? ""}
          onChange={(event) =>
            url.push(withChanges(query, { outcome: (event.target.value || undefined) as PurchaseOutcome | undefined }))
          }
        />
        {items ? (
          <SelectField
            name="item_id"
            label="Item"
            emptyOption="All items"
            options={withCurrentItem(items, query.item_id).map((item) => ({
              value: String(item.id),
              label: item.name,
            }))}
            value={query.item_id === undefined ? "" : String(query.item_id)}
            onChange={(event) =>
              url.push(withChanges(query, { item_id: event.target.value ? Number(event.target.value) : undefined }))
            }
          />
        ) : (
          <SearchField
            name="item_id"
            label="Item id"
            value={query.item_id === undefined ? "" : String(query.item_id)}
            maxLength={15}
            onSearch={(value) => {
              if (value === "" || /^[1-9]\d{0,14}$/.test(value))
                url.replace(withChanges(query, { item_id: value ? Number(value) : undefined }));
            }}
          />
        )}
        <SearchField
          label="Checked by (email)"
          name="user"
          value={query.user ?? ""}
          maxLength={320}
          onSearch={(user) => url.replace(withChanges(query, { user: user || undefined }))}
        />
        <SearchField
          label="Ticket"
          placeholder="helpscout:123"
          name="ticket"
          value={query.ticket ?? ""}
          maxLength={120}
          onSearch={(ticket) => {
            if (ticket === "" || readTicket(ticket)) url.replace(withChanges(query, { ticket: readTicket(ticket) }));
          }}
        />
        <DayRange
          zone={zone}
          from={query.from}
          to={query.to}
          onChange={(name, value) => url.push(withChanges(query, { [name]: value }))}
        />
        <PerPageSelect
          value={query.per_page ?? DEFAULT_PER_PAGE.purchaseHistory}
          onChange={(per_page) => url.push(withChanges(query, { per_page }))}
        />
      </FiltersSheet>

      <form
        className={historyStyles.codeSearch}
        noValidate
        role="search"
        aria-label="Find a purchase code"
        onSubmit={searchCode}
      >
        <TextField
          name="code"
          label="Full purchase code"
          hint="Searched by its fingerprint; the full code is not stored."
          autoComplete="off"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          maxLength={1000}
          value={codeText}
          onChange={(event) => setCodeText(event.target.value)}
          error={codeError ?? (codeRefused ? error.fields?.code : undefined)}
        />
        <Button type="submit" variant="secondary">
          Find
        </Button>
      </form>

      <div className={historyStyles.listActions}>
        {filtered ? (
          <Button variant="ghost" size="sm" onClick={clearAll}>
            Clear the filters
          </Button>
        ) : (
          <span />
        )}
        {code ? (
          <SearchCsvButton body={{ ...historySearchBody(query, code, zone), time_zone: zone }} />
        ) : (
          <a
            href={historyCsvPath(query, zone)}
            download
            className={buttonClassName({ variant: "secondary", size: "sm" })}
          >
            Download CSV
          </a>
        )}
      </div>
      {code ? (
        <p className={historyStyles.codeNote}>
          Showing the checks of{" "}
          {purchaseCodeLast4(code) ? (
            <>
              the code ending <code>{purchaseCodeLast4(code)}</code>
            </>
          ) : (
            "the code you entered"
          )}
          .
        </p>
      ) : null}

      <p role="status" className="visually-hidden">
        {isValidating ? "Loading the history…" : data ? `${data.meta.total} checks` : ""}
      </p>
      <DataTable
        caption="Purchase checks"
        captionHidden
        columns={columns(linkItems, jobIds)}
        rows={codeRefused ? [] : data?.data}
        rowKey={(row) => row.id}
        loading={isValidating || url.pending}
        error={failure}
        empty={
          <EmptyState
            title={filtered ? "No checks match" : "No checks yet"}
            headingLevel={2}
            action={
              filtered ? (
                <Button onClick={clearAll}>Clear the filters</Button>
              ) : (
                <ButtonLink href="/purchases">Check a code</ButtonLink>
              )
            }
          >
            {filtered
              ? "Try another outcome, item, user or dates. A code is found only if it was checked here."
              : "Every purchase code checked here, one by one or in bulk, is listed as it happens."}
          </EmptyState>
        }
      />
      <ListPages
        meta={codeRefused ? undefined : data?.meta}
        failed={Boolean(failure)}
        label="History pages"
        {...pagingOf(url, query)}
      />
    </section>
  );
}

/**
 * The CSV of a search by full code: POSTed (the code in the body), then saved from memory under the name the
 * gateway gives it. A plain link would put the code in the download's URL.
 */
function SearchCsvButton({ body }: { body: ReturnType<typeof historySearchBody> }) {
  const [state, setState] = useState<{ busy: boolean; error?: string }>({ busy: false });
  const download = async () => {
    setState({ busy: true });
    try {
      const response = await fetch(HISTORY_SEARCH_CSV_PATH, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF": "1" },
        body: JSON.stringify(body),
        credentials: "same-origin",
        cache: "no-store",
      });
      if (!response.ok) {
        const answer = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
        throw new Error(answer?.error?.message ?? `The CSV could not be made (HTTP ${response.status}).`);
      }
      const name =
        /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "purchase-history.csv";
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement("a");
      link.href = url;
      link.download = name;
      document.body.append(link);
      link.click();
      link.remove();
      // The browser has taken the file; give its memory back once the click has been handled.
      setTimeout(() => URL.revokeObjectURL(url), 0);
      setState({ busy: false });
    } catch (error) {
      setState({ busy: false, error: error instanceof Error ? error.message : "The CSV could not be made." });
    }
  };
  return (
    <span>
      <Button
        variant="secondary"
        size="sm"
        loading={state.busy}
        loadingText="Making the CSV…"
        onClick={() => void download()}
      >
        Download CSV
      </Button>
      {state.error ? (
        <span role="alert" className={historyStyles.codeNote}>
          {state.error}
        </span>
      ) : null}
    </span>
  );
}

/** The items to choose from, plus the one in the URL if the list lacks it (an item since removed). */
function withCurrentItem(items: readonly ItemOption[], current: number | undefined): readonly ItemOption[] {
  if (current === undefined || items.some((item) => item.id === current)) return items;
  return [...items, { id: current, name: `Item ${current}` }];
}
