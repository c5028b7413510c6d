// A large recorded history for the trend's benchmark and its plan test: `rows` results of 2,000 reports in 20
// projects over the last 400 days, the same rows on every run and store, then each report's newest result and
// fresh planner statistics with the visibility map set (VACUUM ANALYZE on PostgreSQL), as a store in use has
// them once autovacuum has passed over its inserts.
import { sql } from "kysely";

import type { Store } from "@/lib/db";

export const HISTORY_SHAPE = { reports: 2_000, projects: 20, days: 400 } as const;
const RESULTS = ["good", "decent", "bad"] as const;

/** A deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function fillHistory(store: Store, rows: number, today: Date): Promise<void> {
  const { reports, projects, days } = HISTORY_SHAPE;
  const next = random(22);
  const batch = 1000;
  for (let start = 0; start < rows; start += batch) {
    const values = Array.from({ length: Math.min(batch, rows - start) }, (_, i) => {
      const n = start + i;
      const reportId = (n % reports) + 1;
      // Spread over the last `days` days; n in the key keeps (report, generated_at) unique.
      const at = new Date(today.getTime() - Math.floor(next() * days * 86_400_000) - (n % 1000)).toISOString();
      return {
        report_id: reportId,
        url: `https://site-${reportId % projects}.example/page-${reportId}`,
        project: `site-${reportId % projects}.example`,
        result: RESULTS[Math.floor(next() * 3)]!,
        generated_at: at,
        day: at.slice(0, 10),
        seen_at: at,
        source: "list",
      };
    });
    await store.db
      .insertInto("report_results")
      .values(values)
      .onConflict((c) => c.columns(["report_id", "generated_at"]).doNothing())
      .execute();
  }
  await sql`insert into report_latest (report_id, url, project, result, generated_at, history_id)
    select r.report_id, r.url, r.project, r.result, r.generated_at, r.id from report_results r
    where r.generated_at = (select max(generated_at) from report_results x where x.report_id = r.report_id)`.execute(
    store.db,
  );
  await sql.raw(store.dialect === "postgres" ? "VACUUM ANALYZE" : "ANALYZE").execute(store.db);
}
