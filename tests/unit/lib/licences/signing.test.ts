// The licence signing key (lib/licences/signing.ts): made once per store (also when two ask at once), its private
// half sealed (the store never holds it in the clear), published as raw base64 and PEM that verify its signatures;
// a data key that cannot open the seal is said, not answered with a wrong signature.
import { createPublicKey, verify } from "node:crypto";

import { describe, expect, it } from "vitest";

import { licenceSigner, publishedKeys } from "@/lib/licences/signing";

import { sqliteBackend, useStore } from "@/tests/support/store-backends";

const DATA_KEY = "signing-test-data-key-0123456789abcdef";

describe("the licence signing key", () => {
  const store = useStore(sqliteBackend);

  it("is made once, sealed, and verifies what it signs through either published form", async () => {
    const { db } = store();
    const [a, b] = await Promise.all([licenceSigner(db, DATA_KEY), licenceSigner(db, DATA_KEY)]);
    expect(a.keyId).toBe(b.keyId);
    const rows = await db.selectFrom("licence_signing_keys").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.private_sealed).not.toMatch(/BEGIN|MC4CAQAwBQYDK2Vw/); // no PEM, no bare PKCS#8 DER in base64

    const body = '{"data":{"active":true}}';
    const signature = Buffer.from(a.sign(body), "base64");
    const [key] = await publishedKeys(db, DATA_KEY);
    expect(key).toMatchObject({ id: a.keyId, alg: "Ed25519" });
    expect(verify(null, Buffer.from(body), createPublicKey(key!.pem), signature)).toBe(true);
    const raw = Buffer.from(key!.public_key, "base64");
    expect(raw).toHaveLength(32);
    const fromRaw = createPublicKey({
      key: { kty: "OKP", crv: "Ed25519", x: raw.toString("base64url") },
      format: "jwk",
    });
    expect(verify(null, Buffer.from(body), fromRaw, signature)).toBe(true);
    expect(verify(null, Buffer.from(body.replace("true", "fals")), fromRaw, signature)).toBe(false);
  });

  it("refuses to sign with a data key that cannot open the seal, saying why", async () => {
    const { db } = store();
    await licenceSigner(db, DATA_KEY);
    await expect(licenceSigner(db, "another-data-key-0123456789abcdefgh")).rejects.toThrow(/cannot be opened/);
  });
});
