// The reports API never returns a report's page password, so Gatehouse keeps the one it set (on create or update
// through Gatehouse), sealed at rest (lib/seal.ts): AES-256-GCM under a key derived (HKDF) from
// PURCHASE_CODE_HASH_KEY with its own purpose, so that a copy of the database alone does not give the passwords
// away. An editor may reveal it; the route audits each reveal.
import "server-only";

import type { Db } from "@/lib/db";
import { sealer } from "@/lib/seal";

/** Seals and opens the passwords; one whose seal no longer opens (the data key changed) reads as null. */
export const sharePasswordSealer = sealer("gatehouse report share-password seal");

/**
 * Keeps what a report's create or update did to its page password: a new password is sealed and kept, a move
 * away from privacy 2 forgets it (the upstream forgets it too).
 */
export async function keepSharePassword(
  db: Db,
  reportId: number,
  change: { privacy?: number; password?: string },
  hashKey: string,
  by: string,
  now = new Date(),
): Promise<void> {
  if (change.privacy !== undefined && change.privacy !== 2) {
    await db.deleteFrom("report_share_passwords").where("report_id", "=", reportId).execute();
    return;
  }
  if (change.password === undefined) return;
  const row = {
    report_id: reportId,
    sealed: sharePasswordSealer.seal(change.password, hashKey),
    set_at: now.toISOString(),
    set_by: by,
  };
  await db
    .insertInto("report_share_passwords")
    .values(row)
    .onConflict((conflict) =>
      conflict.column("report_id").doUpdateSet({ sealed: row.sealed, set_at: row.set_at, set_by: by }),
    )
    .execute();
}

/** keepSharePassword for a create or update the reports API answered: its report's privacy, the body's password. */
export function keepAnsweredSharePassword(
  server: { db: Db; config: { dataKey: string } },
  report: { id: number; privacy: number },
  password: string | undefined,
  by: string,
): Promise<void> {
  return keepSharePassword(server.db, report.id, { privacy: report.privacy, password }, server.config.dataKey, by);
}

/** The kept password of a report, or null when Gatehouse did not set it (or cannot open it any more). */
export async function revealSharePassword(
  db: Db,
  reportId: number,
  hashKey: string,
): Promise<{ password: string; set_at: string; set_by: string | null } | null> {
  const row = await db
    .selectFrom("report_share_passwords")
    .selectAll()
    .where("report_id", "=", reportId)
    .executeTakeFirst();
  if (!row) return null;
  const password = sharePasswordSealer.open(row.sealed, hashKey);
  return password === null ? null : { password, set_at: row.set_at, set_by: row.set_by };
}
