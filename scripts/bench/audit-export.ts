// Memory while the audit log is exported (GET /api/admin/audit/export's stream, lib/api/audit-export.ts): fills a
// throwaway SQLite store with `--rows` rows (default 100,000), then reads the whole NDJSON export chunk by chunk as a
// client would, sampling the heap after each chunk, and does the same for a tenth of the rows. Baseline, in the same
// run: the same rows read at once and joined (what an export without streaming would hold). Prints the peak growth
// of the live heap of each and the ratios. Flat: the full export's peak is near the tenth's, far under the baseline's.
// Run: npx tsx --expose-gc --conditions=react-server scripts/bench/audit-export.ts [--rows N]
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { auditRecordOutput } from "@/lib/api/accounts";
import { auditExport } from "@/lib/api/audit-export";
import { listAudit } from "@/lib/auth/audit";
import { parseDatabaseUrl } from "@/lib/config/store";
import { openDb, type Db } from "@/lib/db";

const rowsArg = process.argv.indexOf("--rows");
const ROWS = rowsArg > 0 ? Number(process.argv[rowsArg + 1]) : 100_000;
const START = Date.parse("2026-01-01T00:00:00.000Z");

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc, so that each measure starts from a collected heap");

function settledHeap(): number {
  gc!();
  return process.memoryUsage().heapUsed;
}

/**
 * Peak growth of the live heap (bytes) while `work` runs, sampled by the `sample()` calls it makes (each after a
 * collection, so that garbage not yet collected does not count), and what it returns.
 */
async function peakGrowth<T>(work: (sample: () => void) => Promise<T>): Promise<{ peak: number; value: T }> {
  const base = settledHeap();
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, settledHeap() - base);
  };
  const value = await work(sample);
  sample();
  return { peak, value };
}

async function streamed(db: Db, to: string) {
  return peakGrowth(async (sample) => {
    const reader = auditExport(db, { to }, "ndjson").body.getReader();
    let lines = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const byte of value) if (byte === 10) lines += 1;
      sample();
    }
    return lines;
  });
}

const mb = (bytes: number) =>
  bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(0)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  const dir = await mkdtemp(path.join(tmpdir(), "gatehouse-bench-audit-"));
  const store = await openDb(parseDatabaseUrl(path.join(dir, "bench.db")));
  try {
    for (let i = 0; i < ROWS; i += 1000) {
      await store.db
        .insertInto("audit_log")
        .values(
          Array.from({ length: Math.min(1000, ROWS - i) }, (_, k) => {
            const n = i + k;
            return {
              at: new Date(START + n * 60_000).toISOString(),
              user_id: null,
              user_email: `person${n % 50}@example.com`,
              action: "report.update",
              target_type: "report",
              target_id: String(n),
              target_label: `https://shop.example/products/${n}?utm_source=newsletter`,
              outcome: "success",
              request_id: `req-${n.toString(16).padStart(12, "0")}`,
              detail: JSON.stringify({ changes: ["url", "device"], n }),
              repeat_count: 1,
              last_at: null,
            };
          }),
        )
        .execute();
    }
    const all = new Date(START + ROWS * 60_000).toISOString();
    const tenth = new Date(START + (ROWS / 10) * 60_000 - 1).toISOString();

    const buffered = await peakGrowth(async (sample) => {
      const { rows } = await listAudit(store.db, { to: all, perPage: ROWS });
      sample();
      const text = rows.map((row) => `${JSON.stringify(auditRecordOutput(row))}\n`).join("");
      sample();
      return text.length;
    });
    const small = await streamed(store.db, tenth);
    const full = await streamed(store.db, all);
    if (full.value !== ROWS || small.value !== ROWS / 10)
      throw new Error(`exported ${full.value} and ${small.value} rows`);

    console.log(`| export of | peak heap growth | ÷ a tenth's streamed | ÷ buffered |`);
    console.log(`|---|---|---|---|`);
    console.log(
      `| ${ROWS / 10} rows, streamed | ${mb(small.peak)} | 1.00 | ${(small.peak / buffered.peak).toFixed(3)} |`,
    );
    console.log(
      `| ${ROWS} rows, streamed | ${mb(full.peak)} | ${(full.peak / small.peak).toFixed(2)} | ${(full.peak / buffered.peak).toFixed(3)} |`,
    );
    console.log(
      `| ${ROWS} rows, read at once (baseline) | ${mb(buffered.peak)} | ${(buffered.peak / small.peak).toFixed(2)} | 1.000 |`,
    );
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
