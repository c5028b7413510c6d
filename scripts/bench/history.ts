// `npm run bench:history`: the dashboard's 365-day trend over 100,000 recorded results, on SQLite and on
// PostgreSQL (a throwaway cluster, tests/support/postgres.ts), through the same functions the pages call
// (lib/reports/trends.ts). Prints one Markdown table of medians and 95th percentiles; exits 1 when a median of the
// 365-day query is 100 ms or more. The indexes that hold it there are the migrations' (lib/db/migrations/):
// (day, result) for the overall count and (project, day, result) for one project's, read without the table
// (tests/unit/lib/reports/trends.test.ts proves the plan on both stores).
//
// Options: --rows N (default 100000), --runs N (default 30).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { sql } from "kysely";

import { parseDatabaseUrl } from "@/lib/config/store";
import { openDb, type Store } from "@/lib/db";
import { projectMixes, resultTrend } from "@/lib/reports/trends";
import { fillHistory, HISTORY_SHAPE } from "@/tests/support/history-rows";
import { startTestPostgres } from "@/tests/support/postgres";

const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const ROWS = option("rows", 100_000);
const RUNS = option("runs", 30);
const LIMIT_MS = 100;
const TODAY = new Date();

async function fill(store: Store): Promise<number> {
  const started = performance.now();
  await fillHistory(store, ROWS, TODAY);
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
  return {
    median: samples[Math.floor(samples.length / 2)]!,
    p95: samples[Math.min(samples.length - 1, Math.ceil(samples.length * 0.95) - 1)]!,
  };
}

interface Row {
  store: string;
  query: string;
  median: number;
  p95: number;
}

async function measure(name: string, store: Store): Promise<Row[]> {
  const filled = await fill(store);
  const count = Number(
    (await sql<{ n: number }>`select count(*) as n from report_results`.execute(store.db)).rows[0]!.n,
  );
  console.error(`${name}: ${count} rows written in ${(filled / 1000).toFixed(1)} s`);
  const rows: Row[] = [];
  const add = async (query: string, run: () => Promise<unknown>) =>
    rows.push({ store: name, query, ...(await time(run)) });
  await add("trend, 365 days, all projects (the dashboard)", () => resultTrend(store.db, { days: 365, today: TODAY }));
  await add("trend, 30 days, all projects", () => resultTrend(store.db, { days: 30, today: TODAY }));
  await add("trend, 365 days, one project", () =>
    resultTrend(store.db, { days: 365, project: "site-7.example", today: TODAY }),
  );
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

  console.log(
    `\n${ROWS.toLocaleString("en")} history rows, ${HISTORY_SHAPE.reports} reports in ${HISTORY_SHAPE.projects} projects over ${HISTORY_SHAPE.days} days; ${RUNS} runs each.\n`,
  );
  console.log("| store | query | median | p95 |");
  console.log("|---|---|---:|---:|");
  for (const row of results)
    console.log(`| ${row.store} | ${row.query} | ${row.median.toFixed(1)} ms | ${row.p95.toFixed(1)} ms |`);
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
