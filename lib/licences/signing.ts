// The key that signs every answer of the public licence API (Ed25519 through node:crypto), so that an installed
// copy can verify an answer offline with the published public key and keep it. Made at the first start that needs
// it, one for the whole deployment (a lock keeps two instances starting at once from making two), its private
// half sealed under the data key; the public half is on Admin → Licences and at LICENCE_KEYS_PATH.
import "server-only";

import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from "node:crypto";

import { sql } from "kysely";

import { isPostgres, writeTransaction, type Db } from "@/lib/db";
import { processSlot } from "@/lib/process-wide";
import { sealer } from "@/lib/seal";

const keySealer = sealer("gatehouse licence signing key");

export interface LicenceSigner {
  keyId: string;
  /** The signature of `body`'s bytes, base64. */
  sign(body: string | Uint8Array): string;
}

export interface PublishedKey {
  id: string;
  alg: "Ed25519";
  public_key: string;
  pem: string;
  created_at: string;
}

const signerSlot = processSlot<{ db: Db; dataKey: string; signer: Promise<LicenceSigner> }>("licences.signer");

/** The deployment's signer: read (or made) once per process and store. */
export function licenceSigner(db: Db, dataKey: string): Promise<LicenceSigner> {
  const current = signerSlot.get();
  if (current && current.db === db && current.dataKey === dataKey) return current.signer;
  const signer = loadSigner(db, dataKey);
  signerSlot.set({ db, dataKey, signer });
  signer.catch(() => signerSlot.set(undefined));
  return signer;
}

async function loadSigner(db: Db, dataKey: string): Promise<LicenceSigner> {
  const row = await signingKeyRow(db, dataKey);
  const sealedText = keySealer.open(row.private_sealed, dataKey, row.id);
  if (sealedText === null) {
    throw new Error(
      "The licence signing key cannot be opened with this data key (PURCHASE_CODE_HASH_KEY changed?): licence answers cannot be signed.",
    );
  }
  const privateKey: KeyObject = createPrivateKey({
    key: Buffer.from(sealedText, "base64"),
    format: "der",
    type: "pkcs8",
  });
  return {
    keyId: row.id,
    sign: (body) => sign(null, typeof body === "string" ? Buffer.from(body) : body, privateKey).toString("base64"),
  };
}

/** The key's row, made when there is none. */
async function signingKeyRow(db: Db, dataKey: string) {
  const existing = await db.selectFrom("licence_signing_keys").selectAll().orderBy("created_at").executeTakeFirst();
  if (existing) return existing;
  return writeTransaction(db, async (trx) => {
    if (isPostgres(trx))
      await sql`select pg_advisory_xact_lock(hashtext('gatehouse licence signing key'))`.execute(trx);
    const made = await trx.selectFrom("licence_signing_keys").selectAll().orderBy("created_at").executeTakeFirst();
    if (made) return made;
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    const raw = rawPublicKey(publicKey);
    const id = createHash("sha256").update(raw).digest("hex").slice(0, 16);
    const row = {
      id,
      public_key: raw.toString("base64"),
      private_sealed: keySealer.seal(
        privateKey.export({ format: "der", type: "pkcs8" }).toString("base64"),
        dataKey,
        id,
      ),
      created_at: new Date().toISOString(),
    };
    await trx.insertInto("licence_signing_keys").values(row).execute();
    return row;
  });
}

/** The 32 bytes of an Ed25519 public key (the end of its SPKI DER form). */
function rawPublicKey(key: KeyObject): Buffer {
  const der = key.export({ format: "der", type: "spki" });
  return der.subarray(der.length - 32);
}

/** The public keys, as published (made first when there is none yet, so the page never shows an empty list). */
export async function publishedKeys(db: Db, dataKey: string): Promise<PublishedKey[]> {
  await licenceSigner(db, dataKey);
  const rows = await db
    .selectFrom("licence_signing_keys")
    .select(["id", "public_key", "created_at"])
    .orderBy("created_at")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    alg: "Ed25519",
    public_key: row.public_key,
    pem: publicPem(row.public_key),
    created_at: row.created_at,
  }));
}

const SPKI_ED25519_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

function publicPem(rawBase64: string): string {
  const der = Buffer.concat([SPKI_ED25519_PREFIX, Buffer.from(rawBase64, "base64")]);
  return createPublicKey({ key: der, format: "der", type: "spki" }).export({ format: "pem", type: "spki" }).toString();
}
