"use client";
// The columns of a bulk job's results: the code whole (monospace, wrapping on a phone) with its own copy button,
// its status, how often it was in the list, its reason in one sentence (the rest and the cleaning notes under
// "Details", and the slip of an almost-code with its correction one click from the clipboard), and for a valid
// code its purchase: item, licence and support in one column (three pushed the table past a 1440 px screen). A
// revoked code (valid before, refused now) names what was bought and when it was last valid; a code the item service
// did not answer this time, checked before, is marked "Not fresh" with its last verdict's words.
import { CodeStatusBadge, NotACodeBadge, SupportExpiredBadge } from "@/components/portal/purchase-badges";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { Column } from "@/components/ui/data-table";
import { LocalTime } from "@/components/ui/local-time";
import { SupportStatus } from "@/components/ui/support-status";
import type { BulkResult } from "@/lib/contract/purchases";

import styles from "../bulk.module.css";

const dash = <span aria-hidden="true">—</span>;

/** "Invalid purchase code." of a longer reason, and the rest; the rest is shown on demand. */
function splitReason(reason: string | null): { short: string | null; rest: string } {
  if (reason === null) return { short: null, rest: "" };
  const end = reason.search(/[.!?](\s|$)/);
  if (end < 0 || end + 1 >= reason.trimEnd().length) return { short: reason, rest: "" };
  return { short: reason.slice(0, end + 1), rest: reason.slice(end + 1).trim() };
}

function ReasonCell({ row, copyCode }: { row: BulkResult; copyCode: (code: string) => void }) {
  const { short, rest } = splitReason(row.reason);
  return (
    <>
      {row.last_verdict ? (
        <span className={styles.notFresh}>
          <Badge tone="warning" mark="◴">
            Not fresh
          </Badge>{" "}
        </span>
      ) : null}
      {short ?? (row.notes.length === 0 ? dash : null)}
      {row.suggestion ? (
        <span className={styles.slip}>
          Likely a slip: {row.suggestion.slip}.
          {row.suggestion.code ? (
            <Button
              variant="secondary"
              size="sm"
              aria-label={`Copy the corrected code ${row.suggestion.code}`}
              onClick={() => copyCode(row.suggestion!.code!)}
            >
              Copy the corrected code
            </Button>
          ) : null}
        </span>
      ) : null}
      {row.retryable ? <span className={styles.notes}>Can be re-checked.</span> : null}
      {rest !== "" || row.notes.length > 0 ? (
        <details className={styles.details}>
          <summary>Details</summary>
          {rest !== "" ? <p>{rest}</p> : null}
          {row.notes.length > 0 ? (
            <>
              <p>The code was cleaned before checking:</p>
              <ul>
                {row.notes.map((note) => (
                  <li key={note}>{note}</li>
                ))}
              </ul>
            </>
          ) : null}
        </details>
      ) : null}
    </>
  );
}

/** The results' columns; `copyCode` puts a code (the row's, or its correction) on the clipboard. */
export const resultColumns = (copyCode: (code: string) => void): ReadonlyArray<Column<BulkResult>> => [
  // In the order of the pasted list; on a phone each row is a card led by the code and its status.
  {
    id: "index",
    header: "#",
    align: "end",
    fixedOrder: { direction: "asc", text: "In list order" },
    cell: (row) => row.index + 1,
  },
  {
    id: "code",
    header: "Code",
    rowHeader: true,
    priority: "primary",
    cell: (row) => (
      <span className={styles.codeCell}>
        <code className={styles.code}>{row.code}</code>
        <Button variant="ghost" size="sm" aria-label={`Copy code ${row.code}`} onClick={() => copyCode(row.code)}>
          Copy
        </Button>
      </span>
    ),
  },
  {
    id: "status",
    header: "Status",
    priority: "primary",
    wrap: "nowrap",
    // A real purchase whose support had ended: its own colour and words, not those of "invalid".
    cell: (row) =>
      row.status === "valid" && row.support === "expired" ? (
        <SupportExpiredBadge />
      ) : row.refused ? (
        <NotACodeBadge />
      ) : (
        <CodeStatusBadge status={row.status} />
      ),
  },
  { id: "occurrences", header: "Times in list", align: "end", cell: (row) => row.occurrences },
  {
    id: "reason",
    header: "Reason",
    cell: (row) => <ReasonCell row={row} copyCode={copyCode} />,
  },
  // Item, licence and support in one column, a line each: three columns of their own pushed the table past a
  // 1440 px screen and squeezed the reasons to a word a line.
  {
    id: "purchase",
    header: "Purchase",
    cell: (row) =>
      row.status === "valid" ? (
        <span className={styles.purchase}>
          <span>{row.item_name ?? (row.item_id !== null ? `Item ${row.item_id}` : "Item not named")}</span>
          {row.license_type ? <span>{row.license_type}</span> : null}
          <SupportStatus supportedUntil={row.supported_until} />
        </span>
      ) : row.status === "revoked" && row.previously_valid ? (
        <span className={styles.purchase}>
          <span>{row.previously_valid.item.name}</span>
          <span>{row.previously_valid.license_type}</span>
          <span>
            Last valid <LocalTime iso={row.previously_valid.last_valid_at} display="date" />
          </span>
        </span>
      ) : row.last_verdict?.item ? (
        <span className={styles.purchase}>
          <span>{row.last_verdict.item.name}</span>
          {row.last_verdict.license_type ? <span>{row.last_verdict.license_type}</span> : null}
          <span>
            As of <LocalTime iso={row.last_verdict.checked_at} display="date" />
          </span>
        </span>
      ) : (
        dash
      ),
  },
];
