// The tokens page's usage: the last 30 days of the tokens a person manages (an admin: every token), and per
// upstream the tokens that used the most of its calls.
import "server-only";

import { can } from "@/lib/auth/permissions";
import type { User } from "@/lib/auth/users";
import type { TokenUsageOutput } from "@/lib/contract/tokens";
import { isOneOf, TOKEN_USAGE_DAYS, TOKEN_USAGE_OUTCOMES } from "@/lib/contract/values";
import type { Db } from "@/lib/db";

import { listEveryToken, listTokens } from "./store";
import { dayOf, readTokenUsage } from "./usage";

const DAY_MS = 86_400_000;
/** Tokens named per upstream as its biggest users. */
const TOP_TOKENS = 5;

export async function tokenUsageFor(db: Db, actor: User, now = new Date()): Promise<TokenUsageOutput> {
  const listed = can(actor, "users:manage") ? await listEveryToken(db, actor) : await listTokens(db, actor);
  const rows = await readTokenUsage(
    db,
    listed.map(({ token }) => token.id),
    now,
  );
  const totals = { reports: new Map<string, number>(), items: new Map<string, number>() };
  for (const row of rows) {
    totals.reports.set(row.token_id, (totals.reports.get(row.token_id) ?? 0) + row.reports_calls);
    totals.items.set(row.token_id, (totals.items.get(row.token_id) ?? 0) + row.items_calls);
  }
  const top = (map: Map<string, number>) =>
    [...map]
      .filter(([, calls]) => calls > 0)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, TOP_TOKENS)
      .map(([token_id, calls]) => ({ token_id, calls }));
  return {
    from: dayOf(new Date(now.getTime() - (TOKEN_USAGE_DAYS - 1) * DAY_MS)),
    to: dayOf(now),
    rows: rows
      .filter((row) => isOneOf(TOKEN_USAGE_OUTCOMES, row.outcome))
      .map((row) => ({
        token_id: row.token_id,
        day: row.day,
        operation: row.operation,
        outcome: row.outcome as (typeof TOKEN_USAGE_OUTCOMES)[number],
        count: row.count,
        upstream_calls: { reports: row.reports_calls, items: row.items_calls },
      })),
    top_upstream: { reports: top(totals.reports), items: top(totals.items) },
  };
}
