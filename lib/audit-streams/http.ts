// The HTTP collector's batches: a POST of NDJSON (one audit row per line, as GET /api/admin/audit shows it), with
// `Authorization: Bearer <AUDIT_HTTP_TOKEN>` when one is set. Any 2xx is the collector's acceptance of the whole
// batch; anything else, or no answer within the timeout, is a failure and the batch is sent again later (at least
// once: a collector de-duplicates by each line's `id`).
import "server-only";

import type { HttpDestination } from "@/lib/config/audit-streams";
import type { AuditRecordOutput } from "@/lib/contract/audit";

export const HTTP_TIMEOUT_MS = 10_000;

export const ndjson = (rows: readonly AuditRecordOutput[]): string =>
  rows.map((row) => `${JSON.stringify(row)}\n`).join("");

/** Sends one batch; rejects with a sentence (the status, or why nothing answered) unless the collector took it. */
export async function sendHttp(
  destination: HttpDestination,
  rows: readonly AuditRecordOutput[],
  { timeoutMs = HTTP_TIMEOUT_MS }: { timeoutMs?: number } = {},
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(destination.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-ndjson",
        ...(destination.token ? { Authorization: `Bearer ${destination.token}` } : {}),
      },
      body: ndjson(rows),
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const name = (error as Error).name;
    throw new Error(
      name === "TimeoutError"
        ? `the collector did not answer within ${inWords(timeoutMs)}`
        : `the collector could not be reached (${causeOf(error)})`,
    );
  }
  // The answer's body is not read beyond its end (nor shown): only its status says anything.
  await response.body?.cancel().catch(() => {});
  if (response.status < 200 || response.status > 299)
    throw new Error(`the collector answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`);
}

/** undici's "fetch failed" hides the reason in `cause` (ECONNREFUSED, a certificate's problem). */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

const inWords = (ms: number): string => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);
