// A download of any size, read from the store page by page as the client reads it (a pull stream): memory holds one
// page whatever the whole. Used by the purchase history's CSV and the audit log's export. Each page is asked for
// after the last row sent (a keyset, never an offset), so that rows written meanwhile neither repeat nor shift.
import { describeError, logEvent } from "@/lib/log";

export interface PagedStreamOptions<Row> {
  /** What opens the file (a CSV's header row), sent before any page is read. */
  head?: string;
  /** The next page: rows after `last` (null: from the start), at most `limit`. */
  page: (last: Row | null, limit: number) => Promise<Row[]>;
  /** One page's text. */
  encode: (rows: Row[]) => string;
  /** Rows read at a time. */
  pageRows: number;
  /** At most this many rows; past it, `tooMany` ends the file instead. */
  cap?: { maxRows: number; tooMany: string };
  /** The log line's name when the store fails mid-download (the headers are sent: the download is cut short). */
  failureEvent: string;
}

export function pagedStream<Row>({
  head,
  page,
  encode,
  pageRows,
  cap,
  failureEvent,
}: PagedStreamOptions<Row>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const maxRows = cap?.maxRows ?? Number.POSITIVE_INFINITY;
  let sent = 0;
  let last: Row | null = null;
  let started = head === undefined;

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(head));
        return;
      }
      try {
        // One more row than fits tells whether the cap cut the file short.
        const limit = Math.min(pageRows, maxRows - sent + 1);
        const rows = await page(last, limit);
        const room = maxRows - sent;
        const kept = rows.slice(0, room);
        if (kept.length > 0) controller.enqueue(encoder.encode(encode(kept)));
        sent += kept.length;
        last = kept.at(-1) ?? last;
        if (cap && rows.length > room) {
          controller.enqueue(encoder.encode(cap.tooMany));
          controller.close();
        } else if (rows.length < limit) {
          controller.close();
        }
      } catch (error) {
        logEvent("error", failureEvent, { rows_sent: sent, error: describeError(error) });
        controller.error(error);
      }
    },
  });
}
