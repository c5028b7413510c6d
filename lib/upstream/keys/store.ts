// Upstream keys kept in the portal, in the store: sealed with AES-256-GCM (lib/seal.ts) under a key derived from
// GATEHOUSE_KEK, the area bound in as associated data, so that a copy of the database alone reveals no key and a
// sealed key moved to the other area's row does not open. A key is named by its keyed fingerprint and, when
// it is long, its last 4 characters (./fingerprint.ts), never shown in full; a short key's last4 is stored as "". Each area has at most one active
// key; the ones it replaced stay, disabled, until an admin removes them, so that a rotation can be undone.
// Every change bumps the area's row in upstream_key_state, which every instance polls (./ring.ts).
import "server-only";

import { randomUUID } from "node:crypto";

import type { Area } from "@/lib/contract/areas";
import type { KeyEncryptionKeys } from "@/lib/config/kek";
import { writeTransaction, type Db } from "@/lib/db";
import { sealer } from "@/lib/seal";

import { keyFingerprint, last4Of } from "./fingerprint";

const keySealer = sealer("gatehouse upstream key seal");
const contextOf = (area: Area) => `gatehouse upstream key of area ${area}`;

export interface StoredKey {
  id: string;
  area: Area;
  fingerprint: string;
  /** null: the key is too short to show any of it. */
  last4: string | null;
  active: boolean;
  createdAt: string;
  createdBy: string | null;
  activatedAt: string | null;
  activatedBy: string | null;
}

export interface AreaKeyState {
  version: number;
  rejectedAt: string | null;
  rejectedFingerprint: string | null;
}

function seal(key: string, area: Area, kek: Buffer): string {
  return keySealer.seal(key, kek, contextOf(area));
}

/** The key a row seals, opened with the current KEK or (during a rotation) the previous one; null if neither opens it. */
export function openSealed(sealed: string, area: Area, keks: KeyEncryptionKeys): string | null {
  const known = [keks.current, keks.previous].filter((kek) => kek !== null);
  return keySealer.open(sealed, known, contextOf(area));
}

type Row = {
  id: string;
  area: string;
  fingerprint: string;
  last4: string;
  active: number;
  created_at: string;
  created_by: string | null;
  activated_at: string | null;
  activated_by: string | null;
};
const COLUMNS = [
  "id",
  "area",
  "fingerprint",
  "last4",
  "active",
  "created_at",
  "created_by",
  "activated_at",
  "activated_by",
] as const;

function toStoredKey(row: Row): StoredKey {
  return {
    id: row.id,
    area: row.area as Area,
    fingerprint: row.fingerprint,
    last4: row.last4 === "" ? null : row.last4,
    active: row.active === 1,
    createdAt: row.created_at,
    createdBy: row.created_by,
    activatedAt: row.activated_at,
    activatedBy: row.activated_by,
  };
}

/** An area's stored keys, the active one first, then newest first. */
export async function listStoredKeys(db: Db, area: Area): Promise<StoredKey[]> {
  const rows = await db
    .selectFrom("upstream_keys")
    .select(COLUMNS)
    .where("area", "=", area)
    .orderBy("active", "desc")
    .orderBy("created_at", "desc")
    .execute();
  return rows.map(toStoredKey);
}

export async function countStoredKeys(db: Db): Promise<number> {
  const row = await db
    .selectFrom("upstream_keys")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The area's active key, opened; null when it has none. Throws when it cannot be opened (wrong GATEHOUSE_KEK). */
export async function readActiveKey(
  db: Db,
  area: Area,
  keks: KeyEncryptionKeys,
): Promise<{ key: string; stored: StoredKey } | null> {
  return readOpenedKey(db, area, keks, { active: true });
}

/** The area's key that `which` names, opened; null when there is none. Throws when it cannot be opened. */
async function readOpenedKey(
  db: Db,
  area: Area,
  keks: KeyEncryptionKeys,
  which: { active: true } | { id: string },
): Promise<{ key: string; stored: StoredKey } | null> {
  const ofArea = db
    .selectFrom("upstream_keys")
    .select([...COLUMNS, "sealed"])
    .where("area", "=", area);
  const row = await (
    "id" in which ? ofArea.where("id", "=", which.id) : ofArea.where("active", "=", 1)
  ).executeTakeFirst();
  if (!row) return null;
  const key = openSealed(row.sealed, area, keks);
  if (key === null) throw new KeyUnsealError(area, row.fingerprint);
  return { key, stored: toStoredKey(row) };
}

const UNSEAL_ERROR = Symbol.for("gatehouse.KeyUnsealError");
/** GATEHOUSE_KEK (and the previous one) do not open a stored key. Its message names the area and fingerprint only. */
export class KeyUnsealError extends Error {
  readonly [UNSEAL_ERROR] = true;
  constructor(
    readonly area: Area,
    readonly fingerprint: string,
  ) {
    super(
      `GATEHOUSE_KEK: does not open the stored key ${fingerprint} of area ${area}; set the key-encryption key it was saved with (and GATEHOUSE_KEK_PREVIOUS during a rotation)`,
    );
    this.name = "KeyUnsealError";
  }
}
export function isKeyUnsealError(error: unknown): error is KeyUnsealError {
  return typeof error === "object" && error !== null && UNSEAL_ERROR in error;
}

/** Every area's poll row: version of its active key and its last rejection. One indexed query (a primary key). */
export async function readKeyStates(db: Db): Promise<Partial<Record<Area, AreaKeyState>>> {
  const rows = await db
    .selectFrom("upstream_key_state")
    .select(["area", "version", "rejected_at", "rejected_fingerprint"])
    .execute();
  return Object.fromEntries(
    rows.map((row) => [
      row.area,
      { version: row.version, rejectedAt: row.rejected_at, rejectedFingerprint: row.rejected_fingerprint },
    ]),
  );
}

// Both write the area's row with one upsert: two first saves at once (no row yet) must not both try to insert it,
// which PostgreSQL answered with a unique violation for one of them.
async function bumpVersion(trx: Db, area: Area, now: string): Promise<void> {
  await trx
    .insertInto("upstream_key_state")
    .values({ area, version: 1, updated_at: now })
    .onConflict((conflict) =>
      conflict.column("area").doUpdateSet((eb) => ({
        version: eb("upstream_key_state.version", "+", 1),
        updated_at: now,
        rejected_at: null,
        rejected_fingerprint: null,
      })),
    )
    .execute();
}

/** What a change did, for the audit row: the fingerprints before and after. */
export interface KeyChange {
  area: Area;
  oldFingerprint: string | null;
  newFingerprint: string | null;
  key: StoredKey | null;
}

async function activeFingerprint(trx: Db, area: Area): Promise<string | null> {
  const row = await trx
    .selectFrom("upstream_keys")
    .select("fingerprint")
    .where("area", "=", area)
    .where("active", "=", 1)
    .executeTakeFirst();
  return row?.fingerprint ?? null;
}

async function disableActiveKey(trx: Db, area: Area): Promise<void> {
  await trx.updateTable("upstream_keys").set({ active: 0 }).where("area", "=", area).where("active", "=", 1).execute();
}

/** Saves `key` as the area's active key; the active one becomes disabled. The caller has tested it first. */
export async function saveActiveKey(
  db: Db,
  area: Area,
  key: string,
  by: string,
  kek: Buffer,
  fingerprintSecret: string,
  now = new Date(),
): Promise<KeyChange> {
  const at = now.toISOString();
  return writeTransaction(db, async (trx) => {
    // First: on PostgreSQL this locks the area's state row, so two saves at once take turns (one active key).
    await bumpVersion(trx, area, at);
    const oldFingerprint = await activeFingerprint(trx, area);
    const fingerprint = keyFingerprint(key, fingerprintSecret);
    await disableActiveKey(trx, area);
    const id = randomUUID();
    await trx
      .insertInto("upstream_keys")
      .values({
        id,
        area,
        sealed: seal(key, area, kek),
        fingerprint,
        last4: last4Of(key) ?? "",
        active: 1,
        created_at: at,
        created_by: by,
        activated_at: at,
        activated_by: by,
      })
      .execute();
    const stored = (await listStoredKeys(trx, area)).find((k) => k.id === id) ?? null;
    return { area, oldFingerprint, newFingerprint: fingerprint, key: stored };
  });
}

/** A disabled key of the area, opened (to test it before it comes back); null when there is no such key. */
export async function readStoredKey(
  db: Db,
  area: Area,
  id: string,
  keks: KeyEncryptionKeys,
): Promise<{ key: string; stored: StoredKey } | null> {
  return readOpenedKey(db, area, keks, { id });
}

/** Makes a stored key the active one again (undoing a rotation); the active one becomes disabled. */
export async function activateStoredKey(
  db: Db,
  area: Area,
  id: string,
  by: string,
  now = new Date(),
): Promise<KeyChange | null> {
  const at = now.toISOString();
  return writeTransaction(db, async (trx) => {
    const target = await trx
      .selectFrom("upstream_keys")
      .select(["id", "fingerprint", "active"])
      .where("area", "=", area)
      .where("id", "=", id)
      .executeTakeFirst();
    if (!target) return null;
    if (target.active !== 1) await bumpVersion(trx, area, at);
    const oldFingerprint = await activeFingerprint(trx, area);
    if (target.active !== 1) {
      await disableActiveKey(trx, area);
      await trx
        .updateTable("upstream_keys")
        .set({ active: 1, activated_at: at, activated_by: by })
        .where("id", "=", id)
        .execute();
    }
    const stored = (await listStoredKeys(trx, area)).find((k) => k.id === id) ?? null;
    return { area, oldFingerprint, newFingerprint: target.fingerprint, key: stored };
  });
}

/** Who saved the demo's keys (lib/upstream/keys/startup.ts): what tells them apart in a store. */
export const DEMO_KEYS_SAVER = "npm run demo";

/**
 * Removes the keys the demo saved (sealed with the demo's own KEK, which a configured start does not have): a demo
 * store used for a configured start is cleared of them by `npm run users -- remove-demo-accounts`. Their count.
 */
export async function removeDemoKeys(db: Db, now = new Date()): Promise<number> {
  return writeTransaction(db, async (trx) => {
    const rows = await trx
      .selectFrom("upstream_keys")
      .select(["area"])
      .where("created_by", "=", DEMO_KEYS_SAVER)
      .execute();
    if (rows.length === 0) return 0;
    await trx.deleteFrom("upstream_keys").where("created_by", "=", DEMO_KEYS_SAVER).execute();
    for (const area of new Set(rows.map((row) => row.area as Area))) await bumpVersion(trx, area, now.toISOString());
    return rows.length;
  });
}

/** Removes a stored key. The active one is removed too when asked (the area then has no portal key). */
export async function removeStoredKey(db: Db, area: Area, id: string, now = new Date()): Promise<KeyChange | null> {
  return writeTransaction(db, async (trx) => {
    const target = await trx
      .selectFrom("upstream_keys")
      .select(["fingerprint", "active"])
      .where("area", "=", area)
      .where("id", "=", id)
      .executeTakeFirst();
    if (!target) return null;
    await trx.deleteFrom("upstream_keys").where("id", "=", id).execute();
    if (target.active === 1) await bumpVersion(trx, area, now.toISOString());
    return {
      area,
      oldFingerprint: target.fingerprint,
      newFingerprint: target.active === 1 ? null : await activeFingerprint(trx, area),
      key: null,
    };
  });
}

/** The upstream answered 401/403 to this key: every instance's banner shows it (until the key changes or works). */
export async function recordRejection(db: Db, area: Area, fingerprint: string, now = new Date()): Promise<void> {
  const at = now.toISOString();
  await db
    .insertInto("upstream_key_state")
    .values({ area, version: 0, updated_at: at, rejected_at: at, rejected_fingerprint: fingerprint })
    .onConflict((conflict) =>
      conflict.column("area").doUpdateSet({ rejected_at: at, rejected_fingerprint: fingerprint }),
    )
    .execute();
}

/** The key that was rejected works again (the upstream restored it): the banner goes. */
export async function clearRejection(db: Db, area: Area, fingerprint: string): Promise<void> {
  await db
    .updateTable("upstream_key_state")
    .set({ rejected_at: null, rejected_fingerprint: null })
    .where("area", "=", area)
    .where("rejected_fingerprint", "=", fingerprint)
    .execute();
}

/**
 * Re-seals every stored key under `keks.current`, opening each with the current or the previous KEK, in one
 * transaction: either every key moves or none does. Returns how many were re-sealed. Throws KeyUnsealError when
 * a key opens with neither (nothing is changed then).
 */
export async function resealAll(db: Db, keks: KeyEncryptionKeys): Promise<number> {
  const current = keks.current;
  if (!current) throw new Error("GATEHOUSE_KEK: is missing; set the new key-encryption key");
  return writeTransaction(db, async (trx) => {
    const rows = await trx.selectFrom("upstream_keys").select(["id", "area", "sealed", "fingerprint"]).execute();
    for (const row of rows) {
      const area = row.area as Area;
      const key = openSealed(row.sealed, area, keks);
      if (key === null) throw new KeyUnsealError(area, row.fingerprint);
      await trx
        .updateTable("upstream_keys")
        .set({ sealed: seal(key, area, current) })
        .where("id", "=", row.id)
        .execute();
    }
    return rows.length;
  });
}

/**
 * At start-up: every stored key the KEK opens is named again with this process's fingerprint and last 4 rule,
 * and an area's recorded rejection follows its key's new name. A store written before fingerprints were keyed
 * (or before PURCHASE_CODE_HASH_KEY changed) keeps working, and its old unkeyed names are gone. A key neither
 * KEK opens is left as it is (startUpstreamKeysOrExit stops the start for the one in use). Returns how many changed.
 */
export async function refingerprintStoredKeys(
  db: Db,
  keks: KeyEncryptionKeys,
  fingerprintSecret: string,
): Promise<number> {
  return writeTransaction(db, async (trx) => {
    const rows = await trx
      .selectFrom("upstream_keys")
      .select(["id", "area", "sealed", "fingerprint", "last4"])
      .execute();
    let changed = 0;
    for (const row of rows) {
      const area = row.area as Area;
      const key = openSealed(row.sealed, area, keks);
      if (key === null) continue;
      const fingerprint = keyFingerprint(key, fingerprintSecret);
      const last4 = last4Of(key) ?? "";
      if (fingerprint === row.fingerprint && last4 === row.last4) continue;
      await trx.updateTable("upstream_keys").set({ fingerprint, last4 }).where("id", "=", row.id).execute();
      await trx
        .updateTable("upstream_key_state")
        .set({ rejected_fingerprint: fingerprint })
        .where("area", "=", area)
        .where("rejected_fingerprint", "=", row.fingerprint)
        .execute();
      changed++;
    }
    return changed;
  });
}
