// `npm run bench:history`: the dashboard's 365-day trend over 100,000 recorded results, on SQLite and on
// PostgreSQL (a throwaway cluster, tests/support/postgres.ts), through the same functions the pages call
// (lib/reports/trends.ts). Prints one Markdown table of medians and 95th percentiles; exits 1 when a median of the
// 365-day query is 100 ms or more. The indexes that hold it there are the migration's (lib/db/migrations.ts):
// (day, result, …) for the overall count and (project, day, result, …) for one project's.
//
// Options: --rows N (default 100000), --runs N (default 30).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { sql } from "kysely";

import { parseDatabaseUrl } from "@/lib/config/store";
import { openDb, type Store } from "@/lib/db";
import { projectMixes, resultTrend } from "@/lib/reports/trends";
import { startTestPostgres } from "@/tests/support/postgres";

const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const ROWS = option("rows", 100_000);
const RUNS = option("runs", 30);
const LIMIT_MS = 100;
const REPORTS = 2_000;
const PROJECTS = 20;
const DAYS = 400;
const TODAY = new Date();
const RESULTS = ["good", "decent", "bad"] as const;

/** A deterministic PRNG (mulberry32): the same rows on every run and store. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function fill(store: Store): Promise<number> {
  const started = performance.now();
  const next = random(22);
  const batch = 1000;
  for (let start = 0; start < ROWS; start += batch) {
    const rows = Array.from({ length: Math.min(batch, ROWS - start) }, (_, i) => {
      const n = start + i;
      const reportId = (n % REPORTS) + 1;
      // Spread over the last DAYS days; n in the key keeps (report, generated_at) unique.
      const at = new Date(TODAY.getTime() - Math.floor(next() * DAYS * 86_400_000) - (n % 1000)).toISOString();
      return {
        report_id: reportId,
        url: `https://site-${reportId % PROJECTS}.example/page-${reportId}`,
        project: `site-${reportId % PROJECTS}.example`,
        result: RESULTS[Math.floor(next() * 3)]!,
        generated_at: at,
        day: at.slice(0, 10),
        seen_at: at,
        source: "list",
      };
    });
    await store.db.insertInto("report_results").values(rows).onConflict((c) => c.columns(["report_id", "generated_at"]).doNothing()).execute();
  }
  // Each report's newest result, as the recorder keeps it.
  await sql`insert into report_latest (report_id, url, project, result, generated_at, history_id)
    select r.report_id, r.url, r.project, r.result, r.generated_at, r.id from report_results r
    where r.generated_at = (select max(generated_at) from report_results x where x.report_id = r.report_id)`.execute(store.db);
  await sql.raw("ANALYZE").execute(store.db); // fresh statistics, as a store in use has them
  return performance.now() - started;
}

async function time(run: () => Promise<unknown>): Promise<{ median: number; p95: number }> {
  await run(); // warm the caches and the statement
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)]!, p95: samples[Math.min(samples.length - 1, Math.ceil(samples.length * 0.95) - 1)]! };
}

interface Row {
  store: string;
  query: string;
  median: number;
  p95: number;
}

async function measure(name: string, store: Store): Promise<Row[]> {
  const filled = await fill(store);
  const count = Number((await sql<{ n: number }>`select count(*) as n from report_results`.execute(store.db)).rows[0]!.n);
  console.error(`${name}: ${count} rows written in ${(filled / 1000).toFixed(1)} s`);
  const rows: Row[] = [];
  const add = async (query: string, run: () => Promise<unknown>) => rows.push({ store: name, query, ...(await time(run)) });
  await add("trend, 365 days, all projects (the dashboard)", () => resultTrend(store.db, { days: 365, today: TODAY }));
  await add("trend, 30 days, all projects", () => resultTrend(store.db, { days: 30, today: TODAY }));
  await add("trend, 365 days, one project", () => resultTrend(store.db, { days: 365, project: "site-7.example", today: TODAY }));
  await add("each project's mix", () => projectMixes(store.db));
  return rows;
}

async function main(): Promise<void> {
  const results: Row[] = [];
  const dir = await mkdtemp(path.join(tmpdir(), "gatehouse-bench-history-"));
  const sqlite = await openDb(parseDatabaseUrl(path.join(dir, "bench.db")));
  try {
    results.push(...(await measure("SQLite", sqlite)));
  } finally {
    await sqlite.close();
    await rm(dir, { recursive: true, force: true });
  }
  const postgres = await startTestPostgres();
  try {
    const store = await openDb(parseDatabaseUrl(await postgres.createDatabase()));
    try {
      results.push(...(await measure("PostgreSQL", store)));
    } finally {
      await store.close();
    }
  } finally {
    await postgres.stop();
  }

  console.log(`\n${ROWS.toLocaleString("en")} history rows, ${REPORTS} reports in ${PROJECTS} projects over ${DAYS} days; ${RUNS} runs each.\n`);
  console.log("| store | query | median | p95 |");
  console.log("|---|---|---:|---:|");
  for (const row of results) console.log(`| ${row.store} | ${row.query} | ${row.median.toFixed(1)} ms | ${row.p95.toFixed(1)} ms |`);
  const slow = results.filter((row) => row.query.startsWith("trend, 365 days, all") && row.median >= LIMIT_MS);
  if (slow.length > 0) {
    console.log(`\nOver ${LIMIT_MS} ms: ${slow.map((row) => row.store).join(", ")}`);
    process.exitCode = 1;
  } else {
    console.log(`\nThe 365-day dashboard query answers in under ${LIMIT_MS} ms on both stores.`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
