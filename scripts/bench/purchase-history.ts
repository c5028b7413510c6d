// How long the purchase history's reads take over a large store: the per-item view of /purchases (checksPerItem,
// the last 30 days) and a search by code in every form it may be stored in. Fills a throwaway SQLite file with
// `--rows` checks (default 100,000) spread over 60 days, 200 items, a third of them invalid or failed, then times
// each read (median of 5). Run: npx tsx --conditions=react-server scripts/bench/purchase-history.ts [--rows N]
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { parseDatabaseUrl } from "@/lib/config/store";
import { hashPurchaseCode } from "@/lib/auth/audit";
import { openDb } from "@/lib/db";
import { checksPerItem } from "@/lib/purchases/checks-per-item";
import { listPurchaseHistory } from "@/lib/purchases/history";

const KEY = "bench-key-0123456789abcdef0123456789";
const rowsArg = process.argv.indexOf("--rows");
const ROWS = rowsArg > 0 ? Number(process.argv[rowsArg + 1]) : 100_000;
const NOW = Date.parse("2026-11-24T12:00:00.000Z");
const DAY = 86_400_000;

const code = (n: number) => `${(n % 50_000).toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`;

async function median(work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[2]!;
}

async function main() {
  const dir = await mkdtemp(path.join(tmpdir(), "gatehouse-bench-"));
  const store = await openDb(parseDatabaseUrl(path.join(dir, "bench.db")));
  try {
    const rows = Array.from({ length: ROWS }, (_, n) => {
      const outcome = n % 3 === 0 ? (n % 6 === 0 ? "invalid" : "failed") : "valid";
      const checkedAt = new Date(NOW - (n % (60 * 24)) * (DAY / 24)).toISOString();
      const item = outcome === "valid" ? (n % 200) + 1 : null;
      return {
        checked_at: checkedAt,
        user_id: "u-bench",
        user_email: "bench@example.com",
        code_hash: hashPurchaseCode(code(n), KEY),
        code_last4: "0000",
        outcome,
        reason: outcome === "valid" ? null : "Invalid purchase code",
        item_id: item,
        item_name: item === null ? null : `Item ${item}`,
        license_type: item === null ? null : "Regular License",
        supported_until: item === null ? null : new Date(NOW + (n % 2 === 0 ? -1 : 1) * 90 * DAY).toISOString(),
        source: "single",
        bulk_job_id: null,
        request_id: null,
      };
    });
    for (let start = 0; start < rows.length; start += 500) {
      await store.db
        .insertInto("purchase_checks")
        .values(rows.slice(start, start + 500))
        .execute();
    }
    const perItem = await median(() => checksPerItem(store.db, { now: new Date(NOW) }));
    const search = await median(() =>
      listPurchaseHistory(store.db, KEY, { code: code(7).toUpperCase(), page: 1, perPage: 25 }),
    );
    console.log(
      `${ROWS.toLocaleString("en")} checks (SQLite): per-item view of 30 days ${perItem.toFixed(1)} ms, search by code in every form ${search.toFixed(1)} ms (median of 5)`,
    );
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

void main();
