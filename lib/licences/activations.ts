// The activations table: every installed copy a purchase code was activated on, by the code's keyed hash (never
// the code). Activating to the limit is one transaction per code (a lock on PostgreSQL, the write lock on
// SQLite), so that copies of one code activating at once through several instances never exceed it.
import "server-only";

import { randomBytes } from "node:crypto";

import { sql } from "kysely";

import type { Activation, CodeActivation } from "@/lib/contract/licences";
import { isPostgres, writeTransaction, type Db } from "@/lib/db";
import type { LicenceActivationsTable } from "@/lib/db/schema";

import type { Instance } from "./instances";

const newActivationId = () => `act_${randomBytes(12).toString("base64url")}`;

export function activationOf(row: LicenceActivationsTable): CodeActivation {
  return {
    id: row.id,
    item_id: row.item_id,
    instance: { kind: row.instance_kind === "id" ? "id" : "domain", value: row.instance, name: row.instance_name },
    counted: row.counted === 1,
    status: row.status === "active" ? "active" : "deactivated",
    activated_at: row.activated_at,
    last_seen_at: row.last_seen_at,
    deactivated_at: row.deactivated_at,
    deactivated_by: row.deactivated_by,
    reason: row.deactivation_reason,
  };
}

/** Without the item id, as a licence answer shows its own activation. */
export function publicActivation({ item_id: _item, ...activation }: CodeActivation): Activation {
  return activation;
}

export interface LicenceKey {
  codeHash: string;
  itemId: number;
}

/** A code's activations (of every item), active first, newest first. */
export async function codeActivations(db: Db, codeHash: string): Promise<CodeActivation[]> {
  const rows = await db
    .selectFrom("licence_activations")
    .selectAll()
    .where("code_hash", "=", codeHash)
    .orderBy("status")
    .orderBy("last_seen_at", "desc")
    .limit(500)
    .execute();
  return rows.map(activationOf);
}

/** Counted activations of a licence active now. */
export async function activationsUsed(db: Db, { codeHash, itemId }: LicenceKey): Promise<number> {
  const row = await db
    .selectFrom("licence_activations")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("code_hash", "=", codeHash)
    .where("item_id", "=", itemId)
    .where("status", "=", "active")
    .where("counted", "=", 1)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function instanceActivation(
  db: Db,
  { codeHash, itemId }: LicenceKey,
  instance: Instance,
): Promise<LicenceActivationsTable | undefined> {
  return db
    .selectFrom("licence_activations")
    .selectAll()
    .where("code_hash", "=", codeHash)
    .where("item_id", "=", itemId)
    .where("instance_kind", "=", instance.kind)
    .where("instance", "=", instance.value)
    .executeTakeFirst();
}

export type ActivateResult =
  | { kind: "activated" | "already"; activation: CodeActivation; used: number }
  | { kind: "limit"; used: number; active: CodeActivation[] };

/**
 * Activates `instance` for the licence: the same instance again is the same activation (its last seen moved);
 * a counted one past `allowed` is refused with the active ones, so the answer can name them.
 */
export async function activate(
  db: Db,
  licence: LicenceKey & { codeLast4: string },
  instance: Instance,
  { counted, allowed, at }: { counted: boolean; allowed: number; at: Date },
): Promise<ActivateResult> {
  const now = at.toISOString();
  return writeTransaction(db, async (trx) => {
    if (isPostgres(trx)) {
      await sql`select pg_advisory_xact_lock(hashtext(${`gatehouse licence ${licence.codeHash} ${licence.itemId}`}))`.execute(
        trx,
      );
    }
    const existing = await instanceActivation(trx, licence, instance);
    const used = await activationsUsed(trx, licence);
    if (existing?.status === "active") {
      const row = { ...existing, last_seen_at: now, instance_name: instance.name ?? existing.instance_name };
      await trx
        .updateTable("licence_activations")
        .set({ last_seen_at: now, instance_name: row.instance_name })
        .where("id", "=", existing.id)
        .execute();
      return { kind: "already", activation: activationOf(row), used };
    }
    if (counted && used >= allowed) {
      const active = await trx
        .selectFrom("licence_activations")
        .selectAll()
        .where("code_hash", "=", licence.codeHash)
        .where("item_id", "=", licence.itemId)
        .where("status", "=", "active")
        .where("counted", "=", 1)
        .orderBy("last_seen_at", "desc")
        .execute();
      return { kind: "limit", used, active: active.map(activationOf) };
    }
    const fields = {
      instance_name: instance.name,
      counted: counted ? 1 : 0,
      status: "active",
      activated_at: now,
      last_seen_at: now,
      deactivated_at: null,
      deactivated_by: null,
      deactivation_reason: null,
    };
    let row: LicenceActivationsTable;
    if (existing) {
      row = { ...existing, ...fields };
      await trx.updateTable("licence_activations").set(fields).where("id", "=", existing.id).execute();
    } else {
      row = {
        id: newActivationId(),
        code_hash: licence.codeHash,
        code_last4: licence.codeLast4,
        item_id: licence.itemId,
        instance_kind: instance.kind,
        instance: instance.value,
        ...fields,
      };
      await trx.insertInto("licence_activations").values(row).execute();
    }
    return { kind: "activated", activation: activationOf(row), used: used + (counted ? 1 : 0) };
  });
}

/** A validation seen from an active instance: its last seen moves (at most once a minute, to spare writes). */
export async function noteSeen(db: Db, activation: CodeActivation, at: Date): Promise<CodeActivation> {
  if (at.getTime() - Date.parse(activation.last_seen_at) < 60_000) return activation;
  const last_seen_at = at.toISOString();
  await db.updateTable("licence_activations").set({ last_seen_at }).where("id", "=", activation.id).execute();
  return { ...activation, last_seen_at };
}

export interface Deactivation {
  by: string;
  reason: string | null;
  at: Date;
}

const deactivated = ({ by, reason, at }: Deactivation) => ({
  status: "deactivated",
  deactivated_at: at.toISOString(),
  deactivated_by: by,
  deactivation_reason: reason,
});

/** Deactivates the rows `where` selects that are active, and answers them as they are now. */
async function deactivateWhere(
  db: Db,
  select: (query: ReturnType<typeof activeRows>) => ReturnType<typeof activeRows>,
  how: Deactivation,
): Promise<CodeActivation[]> {
  return writeTransaction(db, async (trx) => {
    const rows = await select(activeRows(trx)).execute();
    if (rows.length === 0) return [];
    const set = deactivated(how);
    await trx
      .updateTable("licence_activations")
      .set(set)
      .where(
        "id",
        "in",
        rows.map((row) => row.id),
      )
      .where("status", "=", "active")
      .execute();
    return rows.map((row) => activationOf({ ...row, ...set }));
  });
}

const activeRows = (db: Db) => db.selectFrom("licence_activations").selectAll().where("status", "=", "active");

/** The copy deactivates itself: its activation, or null when it holds none. */
export async function deactivateInstance(
  db: Db,
  licence: LicenceKey,
  instance: Instance,
  how: Deactivation,
): Promise<CodeActivation | null> {
  const rows = await deactivateWhere(
    db,
    (query) =>
      query
        .where("code_hash", "=", licence.codeHash)
        .where("item_id", "=", licence.itemId)
        .where("instance_kind", "=", instance.kind)
        .where("instance", "=", instance.value),
    how,
  );
  return rows[0] ?? null;
}

/** Staff reset one activation: it as it is now, or null when there is no such activation or it was not active. */
export async function resetActivation(db: Db, id: string, how: Deactivation): Promise<CodeActivation | null> {
  const rows = await deactivateWhere(db, (query) => query.where("id", "=", id), how);
  return rows[0] ?? null;
}

/** Staff reset every activation of a code (of one item, or of all), or a revoked purchase releases them. */
export async function resetCode(
  db: Db,
  codeHash: string,
  itemId: number | null,
  how: Deactivation,
): Promise<CodeActivation[]> {
  return deactivateWhere(
    db,
    (query) => {
      const byCode = query.where("code_hash", "=", codeHash);
      return itemId === null ? byCode : byCode.where("item_id", "=", itemId);
    },
    how,
  );
}

/** One activation by its id (any status), for staff. */
export async function activationById(db: Db, id: string): Promise<CodeActivation | null> {
  const row = await db.selectFrom("licence_activations").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? activationOf(row) : null;
}
