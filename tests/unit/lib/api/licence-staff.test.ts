// The staff's side of licence activations on a real SQLite store: a code found in every form a copy may have sent
// it in, activations merged active first, one reset (404 and 409 in words), all of a code's reset with one event
// each (never the code), and Admin → Licences' state (every item, saved policy or defaults, one published key).
// Over HTTP on both stores: tests/http/api/licences/staff.test.ts.
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import {
  activationsOfCode,
  codeHashes,
  licencesAdminState,
  resetCodeActivations,
  resetOneActivation,
  type ResetBy,
} from "@/lib/api/licence-staff";
import { isApiError } from "@/lib/api/errors";
import type { ServerContext } from "@/lib/auth/access";
import { hashPurchaseCode } from "@/lib/auth/audit";
import { LICENCE_KEYS_PATH } from "@/lib/contract/licences";
import { setEventSink, type PortalEvent } from "@/lib/events";
import { activate } from "@/lib/licences/activations";
import { saveLicencePolicy } from "@/lib/licences/policies";
import { isPurchaseCodeRefused } from "@/lib/purchases/errors";
import type { ItemsClient } from "@/lib/upstream";

import { sqliteBackend, useStore } from "@/tests/support/store-backends";

const KEY = "licence-staff-unit-test-key-0123456789";
const CODE = "86781236-23d0-4b3a-b9a7-4ff5c7b1e2f0";
const OTHER = "11111111-1111-4111-8111-111111111111";
const BY: ResetBy = { user: { id: "u1", email: "support@example.com" }, via: "session" };

describe("licence activations for staff", () => {
  const store = useStore(sqliteBackend);
  const server = (): ServerContext =>
    ({ db: store().db, config: { dataKey: KEY, purchases: { codeFormat: "auto" } } }) as unknown as ServerContext;
  let events: PortalEvent[];
  beforeEach(() => {
    events = [];
    setEventSink("test", async (event) => {
      events.push(event);
    });
  });
  afterEach(() => setEventSink("test", null));

  const activated = async (code: string, domain: string, itemId = 7, hashedAs = code) => {
    const result = await activate(
      store().db,
      { codeHash: hashPurchaseCode(hashedAs, KEY), itemId, codeLast4: code.slice(-4) },
      { kind: "domain", value: domain, name: null },
      { counted: true, allowed: 10, at: new Date() },
    );
    if (result.kind === "limit") throw new Error("limit");
    return result.activation;
  };

  it("cleans the code as a check does, and refuses one that cannot be a code in its field", () => {
    const found = codeHashes(server(), `{${CODE.toUpperCase()}}`);
    expect(found.last4).toBe("e2f0");
    expect(found.hashes).toContain(hashPurchaseCode(CODE, KEY));
    expect(found.hashes).toContain(hashPurchaseCode(CODE.toUpperCase(), KEY));
    let thrown: unknown;
    try {
      codeHashes(server(), "8678\u0430236");
    } catch (error) {
      thrown = error;
    }
    expect(isPurchaseCodeRefused(thrown)).toBe(true);
    expect((thrown as { field: string }).field).toBe("purchase_code");
  });

  it("finds a code's activations whatever form they were made in, active first, and not another code's", async () => {
    const canonical = await activated(CODE, "a.example.com");
    const upper = await activated(CODE, "b.example.com", 7, CODE.toUpperCase());
    await activated(OTHER, "c.example.com");
    await resetOneActivation(server(), canonical.id, "moved", BY);
    const found = await activationsOfCode(server(), codeHashes(server(), CODE));
    expect(found.map((activation) => [activation.id, activation.status])).toEqual([
      [upper.id, "active"],
      [canonical.id, "deactivated"],
    ]);
  });

  it("resets one activation and tells of it without the code; 404 and 409 say why in words", async () => {
    const one = await activated(CODE, "a.example.com");
    const reset = await resetOneActivation(server(), one.id, "The buyer moved", BY);
    expect(reset).toMatchObject({ id: one.id, status: "deactivated", deactivated_by: BY.user.email });
    expect(events).toEqual([
      expect.objectContaining({
        type: "licence.deactivated",
        data: {
          activation_id: one.id,
          item_id: 7,
          code_hash: hashPurchaseCode(CODE, KEY),
          code_last4: "e2f0",
          instance: { kind: "domain", value: "a.example.com" },
          by: BY.user.email,
          reason: "The buyer moved",
          staff: { user_id: "u1", email: BY.user.email, via: "session" },
        },
      }),
    ]);
    expect(JSON.stringify(events)).not.toContain(CODE);

    const refusal = async (id: string) => {
      try {
        await resetOneActivation(server(), id, "again", BY);
      } catch (error) {
        return error;
      }
      throw new Error("not refused");
    };
    const again = await refusal(one.id);
    expect(isApiError(again) && again.code).toBe("conflict");
    expect((again as Error).message).toContain(`already deactivated on ${reset.deactivated_at!.slice(0, 19)}`);
    expect((again as Error).message).toContain(`by ${BY.user.email}`);
    const missing = await refusal("act_nothinghere000");
    expect(isApiError(missing) && missing.code).toBe("not_found");
    expect(events).toHaveLength(1);
  });

  it("resets every active activation of a code (of one item, or all), one event each", async () => {
    await activated(CODE, "a.example.com", 7);
    await activated(CODE, "b.example.com", 8);
    await activated(OTHER, "c.example.com", 7);
    const code = codeHashes(server(), CODE);
    expect(await resetCodeActivations(server(), code, 7, "refund", BY)).toBe(1);
    expect(await resetCodeActivations(server(), code, null, "refund", BY)).toBe(1);
    expect(await resetCodeActivations(server(), code, null, "refund", BY)).toBe(0);
    expect(events.map((event) => event.data.item_id)).toEqual([7, 8]);
    const other = await activationsOfCode(server(), codeHashes(server(), OTHER));
    expect(other.map((activation) => activation.status)).toEqual(["active"]);
  });

  it("answers Admin → Licences: every item with its saved policy or the defaults, and the published key", async () => {
    await saveLicencePolicy(
      store().db,
      2,
      { enabled: true, limits: { regular: 3, extended: 9 }, never_count: ["localhost"], revoked_deactivates: false },
      "admin@example.com",
    );
    const items = {
      listItems: async () => [
        { id: 1, name: "One" },
        { id: 2, name: "Two" },
      ],
    } as unknown as ItemsClient;
    const state = await licencesAdminState(server(), items, "https://portal.example.com");
    expect(state.items.map((item) => [item.item_id, item.item_name, item.policy.enabled])).toEqual([
      [1, "One", false],
      [2, "Two", true],
    ]);
    expect(state.items[1]!.policy).toMatchObject({
      limits: { regular: 3, extended: 9 },
      updated_by: "admin@example.com",
    });
    expect(state.keys).toHaveLength(1);
    expect(state.keys_path).toBe(LICENCE_KEYS_PATH);
    expect(state.keys_url).toBe(`https://portal.example.com${LICENCE_KEYS_PATH}`);
    expect((await licencesAdminState(server(), items, null)).keys_url).toBeNull();
  });
});
