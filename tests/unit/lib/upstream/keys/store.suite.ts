// The upstream keys' store on every backend: sealed under the KEK with the area bound in, one active key per
// area, the old one kept to undo a rotation, the poll row's version, rejections, and the KEK re-seal.
import { createHash, randomBytes } from "node:crypto";

import { describe, expect, it } from "vitest";

import {
  activateStoredKey,
  clearRejection,
  countStoredKeys,
  DEMO_KEYS_SAVER,
  isKeyUnsealError,
  listStoredKeys,
  readActiveKey,
  readKeyStates,
  recordRejection,
  refingerprintStoredKeys,
  removeDemoKeys,
  removeStoredKey,
  resealAll,
  saveActiveKey,
} from "@/lib/upstream/keys/store";
import { keyFingerprint } from "@/lib/upstream/keys/fingerprint";

import { useStore, type Backend } from "@/tests/support/store-backends";

const KEK = randomBytes(32);
const SECRET = randomBytes(32).toString("hex");
const NEW_KEK = randomBytes(32);
const FIRST = "first-upstream-key-0001";
const SECOND = "second-upstream-key-0002";

export function upstreamKeysSuite(backend: Backend) {
  describe(`upstream keys (${backend.name})`, () => {
    const store = useStore(backend);

    it("stores a short key with a keyed fingerprint and no last 4", async () => {
      const { db } = store();
      const change = await saveActiveKey(db, "items", "k3Y9zQ2a", "admin@example.com", KEK, SECRET);
      expect(change.newFingerprint).toBe(keyFingerprint("k3Y9zQ2a", SECRET));
      expect(change.key).toMatchObject({ fingerprint: keyFingerprint("k3Y9zQ2a", SECRET), last4: null });
      expect((await listStoredKeys(db, "items"))[0]?.last4).toBeNull();
      expect((await readActiveKey(db, "items", { current: KEK, previous: null }))?.stored.last4).toBeNull();
    });

    it("removes the keys the demo saved, and only those", async () => {
      const { db } = store();
      await saveActiveKey(db, "reports", FIRST, DEMO_KEYS_SAVER, KEK, SECRET);
      await saveActiveKey(db, "items", FIRST, DEMO_KEYS_SAVER, KEK, SECRET);
      await saveActiveKey(db, "items", SECOND, "admin@example.com", KEK, SECRET);
      expect(await removeDemoKeys(db)).toBe(2);
      expect(await countStoredKeys(db)).toBe(1);
      expect(await removeDemoKeys(db)).toBe(0);
    });

    it("names stored keys again at start-up: an unkeyed fingerprint and a short key's last 4 are replaced, the rejection follows", async () => {
      const { db } = store();
      const short = "k3Y9zQ2a";
      await saveActiveKey(db, "items", short, "a", KEK, SECRET);
      // As a store from before keyed fingerprints holds it: a plain SHA-256 prefix and the last 4.
      const unkeyed = createHash("sha256").update(short).digest("hex").slice(0, 8);
      await db
        .updateTable("upstream_keys")
        .set({ fingerprint: unkeyed, last4: short.slice(-4) })
        .where("area", "=", "items")
        .execute();
      await recordRejection(db, "items", unkeyed);
      const keks = { current: KEK, previous: null };
      expect(await refingerprintStoredKeys(db, keks, SECRET)).toBe(1);
      expect((await listStoredKeys(db, "items"))[0]).toMatchObject({
        fingerprint: keyFingerprint(short, SECRET),
        last4: null,
      });
      expect((await readKeyStates(db)).items?.rejectedFingerprint).toBe(keyFingerprint(short, SECRET));
      // Once named, a second start changes nothing; a KEK that opens nothing leaves the rows alone.
      expect(await refingerprintStoredKeys(db, keks, SECRET)).toBe(0);
      expect(await refingerprintStoredKeys(db, { current: NEW_KEK, previous: null }, "another secret")).toBe(0);
    });

    it("keeps a saved key sealed, names it by fingerprint and last 4, and opens it with the KEK", async () => {
      const { db } = store();
      const change = await saveActiveKey(db, "reports", FIRST, "admin@example.com", KEK, SECRET);
      expect(change).toMatchObject({
        area: "reports",
        oldFingerprint: null,
        newFingerprint: keyFingerprint(FIRST, SECRET),
      });
      expect(keyFingerprint(FIRST, SECRET)).toMatch(/^[0-9a-f]{8}$/);
      const row = await db.selectFrom("upstream_keys").selectAll().executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(FIRST);
      expect(row).toMatchObject({ last4: "0001", active: 1, created_by: "admin@example.com" });
      expect((await readActiveKey(db, "reports", { current: KEK, previous: null }))?.key).toBe(FIRST);
      expect(await readActiveKey(db, "items", { current: KEK, previous: null })).toBeNull();
    });

    it("refuses to open a key with another KEK, or moved to the other area's row", async () => {
      const { db } = store();
      await saveActiveKey(db, "reports", FIRST, "a", KEK, SECRET);
      const wrong = await readActiveKey(db, "reports", { current: NEW_KEK, previous: null }).catch(
        (error: unknown) => error,
      );
      expect(isKeyUnsealError(wrong)).toBe(true);
      expect(String(wrong)).not.toContain(FIRST);
      await db.updateTable("upstream_keys").set({ area: "items" }).execute();
      expect(
        isKeyUnsealError(await readActiveKey(db, "items", { current: KEK, previous: null }).catch((e: unknown) => e)),
      ).toBe(true);
    });

    it("keeps the replaced key disabled, restores it, and bumps the version every instance polls", async () => {
      const { db } = store();
      await saveActiveKey(db, "reports", FIRST, "a", KEK, SECRET);
      expect((await readKeyStates(db)).reports?.version).toBe(1);
      const rotation = await saveActiveKey(db, "reports", SECOND, "b", KEK, SECRET);
      expect(rotation).toMatchObject({
        oldFingerprint: keyFingerprint(FIRST, SECRET),
        newFingerprint: keyFingerprint(SECOND, SECRET),
      });
      expect((await readKeyStates(db)).reports?.version).toBe(2);
      const keys = await listStoredKeys(db, "reports");
      expect(keys.map((k) => [k.last4, k.active])).toEqual([
        ["0002", true],
        ["0001", false],
      ]);
      const undo = await activateStoredKey(db, "reports", keys[1]!.id, "c");
      expect(undo).toMatchObject({
        oldFingerprint: keyFingerprint(SECOND, SECRET),
        newFingerprint: keyFingerprint(FIRST, SECRET),
      });
      expect((await readActiveKey(db, "reports", { current: KEK, previous: null }))?.key).toBe(FIRST);
      expect((await readKeyStates(db)).reports?.version).toBe(3);
      expect(await activateStoredKey(db, "reports", "00000000-0000-4000-8000-000000000000", "c")).toBeNull();
      const removed = await removeStoredKey(db, "reports", keys[0]!.id);
      expect(removed).toMatchObject({
        oldFingerprint: keyFingerprint(SECOND, SECRET),
        newFingerprint: keyFingerprint(FIRST, SECRET),
      });
      expect(await countStoredKeys(db)).toBe(1);
    });

    it("keeps one active key when two admins save at once", async () => {
      const { db } = store();
      await saveActiveKey(db, "reports", FIRST, "a", KEK, SECRET);
      await Promise.all([
        saveActiveKey(db, "reports", SECOND, "b", KEK, SECRET),
        saveActiveKey(db, "reports", "third-upstream-key-0003", "c", KEK, SECRET),
      ]);
      const keys = await listStoredKeys(db, "reports");
      expect(keys).toHaveLength(3);
      expect(keys.filter((k) => k.active)).toHaveLength(1);
      expect((await readKeyStates(db)).reports?.version).toBe(3);
    });

    it("records a rejection of a key, clears it when that key works again, and a new key clears it too", async () => {
      const { db } = store();
      await saveActiveKey(db, "items", FIRST, "a", KEK, SECRET);
      await recordRejection(db, "items", keyFingerprint(FIRST, SECRET), new Date("2026-11-24T14:02:00Z"));
      expect((await readKeyStates(db)).items).toMatchObject({
        rejectedAt: "2026-11-24T14:02:00.000Z",
        rejectedFingerprint: keyFingerprint(FIRST, SECRET),
      });
      await clearRejection(db, "items", "deadbeef");
      expect((await readKeyStates(db)).items?.rejectedFingerprint).toBe(keyFingerprint(FIRST, SECRET));
      await clearRejection(db, "items", keyFingerprint(FIRST, SECRET));
      expect((await readKeyStates(db)).items?.rejectedAt).toBeNull();
      await recordRejection(db, "items", keyFingerprint(FIRST, SECRET));
      await saveActiveKey(db, "items", SECOND, "a", KEK, SECRET);
      expect((await readKeyStates(db)).items?.rejectedAt).toBeNull();
      // A rejection of an environment key (no row yet) makes the row.
      await recordRejection(db, "reports", "0123abcd");
      expect((await readKeyStates(db)).reports).toMatchObject({ version: 0, rejectedFingerprint: "0123abcd" });
    });

    it("re-seals every key under the new KEK with the old one as previous, or changes nothing when one will not open", async () => {
      const { db } = store();
      await saveActiveKey(db, "reports", FIRST, "a", KEK, SECRET);
      await saveActiveKey(db, "items", SECOND, "a", KEK, SECRET);
      const before = await db.selectFrom("upstream_keys").select("sealed").orderBy("id").execute();
      const refused = await resealAll(db, { current: NEW_KEK, previous: randomBytes(32) }).catch((e: unknown) => e);
      expect(isKeyUnsealError(refused)).toBe(true);
      expect(await db.selectFrom("upstream_keys").select("sealed").orderBy("id").execute()).toEqual(before);
      expect(await resealAll(db, { current: NEW_KEK, previous: KEK })).toBe(2);
      expect((await readActiveKey(db, "reports", { current: NEW_KEK, previous: null }))?.key).toBe(FIRST);
      expect((await readActiveKey(db, "items", { current: NEW_KEK, previous: null }))?.key).toBe(SECOND);
      // Running it again (an interrupted rotation resumed) is harmless.
      expect(await resealAll(db, { current: NEW_KEK, previous: KEK })).toBe(2);
    });
  });
}
