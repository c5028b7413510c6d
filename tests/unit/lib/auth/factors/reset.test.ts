// Every factor row of some people removed at once, and no one else's.
import { describe, expect, it } from "vitest";

import { generateRecoveryCodes } from "@/lib/auth/factors/recovery";
import { deleteFactors } from "@/lib/auth/factors/reset";
import { startTotpEnrolment } from "@/lib/auth/factors/totp";
import type { Db } from "@/lib/db";

import { bothBackends, useStore } from "@/tests/support/store-backends";

const KEY = "a data key for the reset tests";

async function everything(db: Db, userId: string) {
  await startTotpEnrolment(db, { id: userId, email: `${userId}@example.com` }, { sealKey: KEY });
  await generateRecoveryCodes(db, userId, { sealKey: KEY });
  await db
    .insertInto("passkeys")
    .values({
      id: `pk-${userId}`,
      user_id: userId,
      credential_id: `c-${userId}`,
      public_key: "cHVi",
      name: "Key",
      created_at: "2026-03-01",
    })
    .execute();
  await db
    .insertInto("auth_challenges")
    .values({
      id: `ch-${userId}`,
      challenge: `x-${userId}`,
      purpose: "register",
      user_id: userId,
      expires_at: "2026-03-01",
      created_at: "2026-03-01",
    })
    .execute();
}

const rows = async (db: Db, userId: string) => [
  (await db.selectFrom("passkeys").select("id").where("user_id", "=", userId).execute()).length,
  (await db.selectFrom("totp_factors").select("user_id").where("user_id", "=", userId).execute()).length,
  (await db.selectFrom("recovery_codes").select("id").where("user_id", "=", userId).execute()).length,
  (await db.selectFrom("auth_challenges").select("id").where("user_id", "=", userId).execute()).length,
];

describe.each(bothBackends())("deleteFactors ($name)", (backend) => {
  const store = useStore(backend);

  it("removes the passkeys, app, recovery codes and challenges of those named, says how many, and leaves others'", async () => {
    const { db } = store();
    await everything(db, "a");
    await everything(db, "b");
    await everything(db, "c");
    expect(await db.transaction().execute((trx) => deleteFactors(trx, ["a", "b"]))).toEqual({
      passkeys: 2,
      totp: 2,
      recoveryCodes: 20,
    });
    expect(await rows(db, "a")).toEqual([0, 0, 0, 0]);
    expect(await rows(db, "b")).toEqual([0, 0, 0, 0]);
    expect(await rows(db, "c")).toEqual([1, 1, 10, 1]);
    expect(await deleteFactors(db, [])).toEqual({ passkeys: 0, totp: 0, recoveryCodes: 0 });
  });
});
