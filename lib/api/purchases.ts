// The purchase routes' answers that are the API's to give: the bulk allowance's refusals in words, a job that is
// not there, and a page or the CSV of the history (for the list, GET with filters in the query, and for the
// search by full code, POST with everything in the body, so the code is never in a URL).
import "server-only";

import type { ServerContext } from "@/lib/auth/access";
import { pageMeta, type Page } from "@/lib/contract/common";
import type { PurchaseHistoryEntry } from "@/lib/contract/purchases";
import { DEFAULT_PER_PAGE } from "@/lib/contract/values";
import { listPurchaseHistory, purchaseHistoryCsv, type PurchaseHistoryFilters } from "@/lib/purchases/history";
import type { AllowanceDecision, JobsPerDayRefusal } from "@/lib/purchases/bulk/allowance";

import { isUpstreamError } from "@/lib/upstream";

import { ApiError, fieldsRefused, fromUpstreamError, rateLimited } from "./errors";
import type { Reply } from "./route";

/** Why a check failed, in the words its answer and the history give (never a URL or a key). */
export function checkFailureReason(error: unknown): string {
  if (isUpstreamError(error)) return fromUpstreamError(error, "The item API does not know this purchase.").message;
  return "Gatehouse could not finish the check because of an internal error.";
}

export function jobNotFound(id: string): ApiError {
  return new ApiError("not_found", `There is no bulk job ${id} (jobs are kept 7 days).`);
}

/** A batch over the hourly allowance: refused before anything is checked, with when it could run. */
export function allowanceRefusal(decision: Extract<AllowanceDecision, { allowed: false }>, now = Date.now()): ApiError {
  const { limit, left, needed, runAt } = decision;
  const codes = (n: number) => `${n.toLocaleString("en")} ${n === 1 ? "code" : "codes"}`;
  if (runAt === null) {
    return fieldsRefused({
      codes: `This batch has ${codes(needed)} to check, more than the bulk allowance of ${codes(limit)} an hour. Split it into batches of at most ${codes(limit)}.`,
    });
  }
  const seconds = Math.max(1, Math.ceil((runAt.getTime() - now) / 1000));
  const minutes = Math.ceil(seconds / 60);
  const when = `${runAt.toISOString().replace(/\.\d{3}Z$/, "Z")} (in ${minutes} ${minutes === 1 ? "minute" : "minutes"})`;
  const now_ = left > 0 ? `, or send at most ${codes(left)} now` : "";
  return rateLimited(
    `This batch needs ${codes(needed)} but your bulk allowance has ${left.toLocaleString("en")} of ${codes(limit)} left this hour. It can run at ${when}${now_}.`,
    seconds,
  );
}

/** Too many jobs in 24 hours: refused with when the next may start. */
export function jobsPerDayRefusal({ jobsPerDay, runAt }: JobsPerDayRefusal, now = Date.now()): ApiError {
  const seconds = Math.max(1, Math.ceil((runAt.getTime() - now) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return rateLimited(
    `You have started ${jobsPerDay} bulk checks in the last 24 hours, the most one user may. The next can start at ${runAt.toISOString().replace(/\.\d{3}Z$/, "Z")} (in ${minutes} ${minutes === 1 ? "minute" : "minutes"}); until then, put more codes in one check (up to 500).`,
    seconds,
  );
}

type Paged = PurchaseHistoryFilters & { page?: number; per_page?: number };

/** One page of the history as GET /api/purchases/history answers it (and the history page renders first). */
export async function purchaseHistoryPage(
  server: ServerContext,
  { page = 1, per_page: perPage = DEFAULT_PER_PAGE.purchaseHistory, ...filters }: Paged,
): Promise<Page<PurchaseHistoryEntry>> {
  const { rows, total } = await listPurchaseHistory(server.db, server.config.dataKey, {
    ...filters,
    codeFormat: server.config.purchases.codeFormat,
    page,
    perPage,
  });
  return { data: rows, meta: pageMeta(page, perPage, total) };
}

export async function historyPage(server: ServerContext, query: Paged): Promise<Reply> {
  return { status: 200, json: await purchaseHistoryPage(server, query) };
}

/** The whole selection as CSV, whatever page the list was showing. */
export function historyCsv(server: ServerContext, { page: _page, per_page: _perPage, ...filters }: Paged): Reply {
  const today = new Date().toISOString().slice(0, 10);
  return {
    status: 200,
    download: {
      body: purchaseHistoryCsv(server.db, server.config.dataKey, {
        ...filters,
        codeFormat: server.config.purchases.codeFormat,
      }),
      contentType: "text/csv; charset=utf-8",
      fileName: `purchase-history-${today}.csv`,
    },
  };
}

/** A re-check that cannot run: the job still runs, or none of its rows failed for a reason a retry can pass. */
export function recheckRefusal(problem: "running" | "nothing_to_recheck"): ApiError {
  return new ApiError(
    "conflict",
    problem === "running"
      ? "This bulk check is still running; re-check its failed rows once it has finished."
      : "No row of this bulk check failed for a reason a retry can pass (network, timeout, rate limit, server error): there is nothing to re-check. Invalid codes stay invalid.",
  );
}
