// The purchase history's columns (./history-view.tsx): what each row shows at a desk, and as a card on a phone.
import Link from "next/link";

import { CodeStatusBadge, SupportExpiredBadge } from "@/components/portal/purchase-badges";
import type { Column } from "@/components/ui/data-table";
import { LocalTime } from "@/components/ui/local-time";
import { SafeLink } from "@/components/ui/safe-link";
import { SupportStatus } from "@/components/ui/support-status";
import type { PurchaseHistoryEntry } from "@/lib/contract/purchases";
import { ticketFilter } from "@/lib/contract/values";
import { SOURCE_LABELS } from "@/lib/portal/purchase-history-params";

import styles from "../../lists.module.css";
import historyStyles from "./history.module.css";

/** "••••1111", read as "ending 1111": the rest of the code is not kept (none of it, for a code under 16 characters). */
function CodeEnding({ last4 }: { last4: string }) {
  if (last4 === "") return <span className={styles.muted}>Too short to show</span>;
  return (
    <code className={historyStyles.code}>
      <span aria-hidden="true">••••</span>
      <span className="visually-hidden">ending </span>
      {last4}
    </code>
  );
}

// Six columns that fit 1440 px: each cell one line at a desk, with a quieter second line where there is more to say
// (the reason or the support under the outcome, the licence under the item, the source under who checked);
// dates, codes and badges never wrap, long text ends in an ellipsis with the whole value in its title. On a
// phone each row is a card led by the code and its outcome.
export function columns(linkItems: boolean, jobIds: ReadonlySet<string>): ReadonlyArray<Column<PurchaseHistoryEntry>> {
  const dash = <span className={styles.muted}>—</span>;
  return [
    {
      id: "when",
      header: "When",
      wrap: "nowrap",
      fixedOrder: { direction: "desc", text: "Newest first" },
      // "(1 minute ago)" beside the time widened the column as rows aged, past 1440 px with long emails beside it:
      // the age is the quieter second line.
      cell: (row) => (
        <>
          <LocalTime iso={row.checked_at} display="short" />{" "}
          <span className={styles.secondary}>
            <LocalTime iso={row.checked_at} />
          </span>
        </>
      ),
    },
    {
      id: "code",
      header: "Code",
      rowHeader: true,
      priority: "primary",
      wrap: "nowrap",
      cell: (row) => <CodeEnding last4={row.code_last4} />,
    },
    {
      id: "outcome",
      header: "Outcome",
      priority: "primary",
      wrap: "nowrap",
      // "Possibly shared" leads the quieter line (the badge and one line a row, at most), so it is never cut off.
      cell: (row) => {
        const shared = row.shared_suspected ? <span className={historyStyles.shared}>⚑ Possibly shared</span> : null;
        const sep = shared ? " · " : "";
        return (
          <>
            {row.support === "expired" ? <SupportExpiredBadge /> : <CodeStatusBadge status={row.outcome} />}
            {row.reason ? (
              <span className={styles.secondary} title={shared ? `Possibly shared · ${row.reason}` : row.reason}>
                {shared}
                {sep}
                {row.reason}
              </span>
            ) : row.outcome === "valid" ? (
              <span className={styles.secondary}>
                {shared}
                {sep}
                Support: <SupportStatus supportedUntil={row.supported_until} />
              </span>
            ) : shared ? (
              <span className={styles.secondary}>{shared}</span>
            ) : null}
          </>
        );
      },
    },
    {
      id: "item",
      header: "Item",
      wrap: "nowrap",
      cell: (row) => {
        if (row.item_id === null) return dash;
        const name = row.item_name ?? `Item ${row.item_id}`;
        return (
          <>
            <span className={styles.line} title={name}>
              {linkItems ? <Link href={`/items/${row.item_id}`}>{name}</Link> : name}
            </span>
            {row.license_type ? <span className={styles.secondary}>{row.license_type}</span> : null}
          </>
        );
      },
    },
    {
      id: "by",
      header: "Checked by",
      wrap: "nowrap",
      cell: (row) => (
        <>
          <span className={styles.line} title={row.checked_by.email ?? undefined}>
            {row.checked_by.email ?? (
              // The sweep and the licence API check on their own: no person asked.
              <span className={styles.muted}>
                {row.source === "sweep" || row.source === "licence" ? "Gatehouse" : "Unknown"}
              </span>
            )}
          </span>
          <span className={styles.secondary}>
            {row.source === "bulk" && row.bulk_job_id && jobIds.has(row.bulk_job_id) ? (
              <Link href={`/purchases/bulk/${row.bulk_job_id}`}>{SOURCE_LABELS.bulk}</Link>
            ) : (
              SOURCE_LABELS[row.source]
            )}
            {row.ticket ? (
              <>
                {" · "}
                <SafeLink href={row.ticket.url} missing={ticketFilter(row.ticket)}>
                  {`Ticket ${ticketFilter(row.ticket)}`}
                </SafeLink>
              </>
            ) : null}
          </span>
        </>
      ),
    },
  ];
}
