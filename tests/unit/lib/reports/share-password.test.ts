// Page passwords Gatehouse set, sealed at rest: kept on create/update, forgotten when privacy leaves 2, revealed
// with the key that sealed them only.
import { describe, expect, it } from "vitest";

import {
  keepAnsweredSharePassword,
  keepSharePassword,
  revealSharePassword,
  sharePasswordSealer,
} from "@/lib/reports/share-password";

import { sqliteBackend, useStore } from "@/tests/support/store-backends";

const KEY = "share-password-test-key-0123456789abcdef";

describe("sharePasswordSealer", () => {
  it("seals differently each time, opens with its key only, and refuses a damaged seal", () => {
    const a = sharePasswordSealer.seal("hunter2", KEY);
    expect(a).not.toContain("hunter2");
    expect(sharePasswordSealer.seal("hunter2", KEY)).not.toBe(a);
    expect(sharePasswordSealer.open(a, KEY)).toBe("hunter2");
    expect(sharePasswordSealer.open(a, "another-key-0123456789abcdef-0123456789")).toBeNull();
    expect(sharePasswordSealer.open(`${a}x`, KEY)).toBeNull();
    expect(sharePasswordSealer.open("not a seal", KEY)).toBeNull();
  });
});

describe("keepSharePassword", () => {
  const store = useStore(sqliteBackend);

  it("keeps the newest password sealed, reveals it, and forgets it when the report leaves privacy 2", async () => {
    const { db } = store();
    await keepSharePassword(
      db,
      4,
      { privacy: 2, password: "first secret" },
      KEY,
      "ed@example.com",
      new Date("2026-11-24T10:00:00Z"),
    );
    await keepSharePassword(
      db,
      4,
      { privacy: 2, password: "second secret" },
      KEY,
      "ann@example.com",
      new Date("2026-11-24T11:00:00Z"),
    );
    const rows = await db.selectFrom("report_share_passwords").selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain("secret");
    expect(await revealSharePassword(db, 4, KEY)).toEqual({
      password: "second secret",
      set_at: "2026-11-24T11:00:00.000Z",
      set_by: "ann@example.com",
    });
    expect(await revealSharePassword(db, 4, "another-key-0123456789abcdef-0123456789")).toBeNull();
    await keepSharePassword(db, 4, { privacy: 2 }, KEY, "ed@example.com"); // privacy 2 without a new password: kept
    expect((await revealSharePassword(db, 4, KEY))?.password).toBe("second secret");
    await keepSharePassword(db, 4, { privacy: 1 }, KEY, "ed@example.com");
    expect(await revealSharePassword(db, 4, KEY)).toBeNull();
  });
});

describe("keepAnsweredSharePassword", () => {
  const store = useStore(sqliteBackend);

  it("keeps the body's password under the accounts' data key, and forgets it when the answer's privacy is not 2", async () => {
    const { db } = store();
    const accounts = { db, config: { dataKey: KEY } };
    await keepAnsweredSharePassword(accounts, { id: 7, privacy: 2 }, "page secret", "ed@example.com");
    expect(await revealSharePassword(db, 7, KEY)).toMatchObject({ password: "page secret", set_by: "ed@example.com" });
    await keepAnsweredSharePassword(accounts, { id: 7, privacy: 0 }, undefined, "ed@example.com");
    expect(await revealSharePassword(db, 7, KEY)).toBeNull();
  });
});
