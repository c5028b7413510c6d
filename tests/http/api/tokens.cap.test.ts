// The cap on a person's API tokens over real HTTP (next start ↔ sandbox, on SQLite and on PostgreSQL): at most
// MAX_ACTIVE_TOKENS_PER_OWNER active at once, also when many are asked for at the same moment, and a revoked one
// makes room again.
import { describe, expect, it } from "vitest";

import { MAX_ACTIVE_TOKENS_PER_OWNER } from "@/lib/contract/values";

import type { SignedInClient } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";
import { bothServerStores } from "@/tests/support/store-backends";

const BEYOND = 15;
const make = (client: SignedInClient, name: string) =>
  client.request("/api/tokens", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name, scopes: ["reports:read"], expires_in_days: 365 }),
  });

describe.each(bothServerStores())("on $name", (store) => {
  const { gateway } = setUpGateway({ env: async () => ({ DATABASE_URL: await store.create() }) });

  it(`makes at most ${MAX_ACTIVE_TOKENS_PER_OWNER} active tokens per person, even when ${MAX_ACTIVE_TOKENS_PER_OWNER + BEYOND} are asked for at once`, async () => {
    const viewer = await gateway.signIn("viewer");
    const answers = await Promise.all(
      Array.from({ length: MAX_ACTIVE_TOKENS_PER_OWNER + BEYOND }, (_, i) => make(viewer, `burst ${i}`)),
    );
    const made = answers.filter((res) => res.status === 201);
    const refused = answers.filter((res) => res.status !== 201);
    expect(made).toHaveLength(MAX_ACTIVE_TOKENS_PER_OWNER);
    expect(refused).toHaveLength(BEYOND);
    for (const res of refused) expect([res.status, res.json.error.code], res.text).toEqual([409, "too_many_tokens"]);
    expect(refused[0]!.json.error.message).toContain(`${MAX_ACTIVE_TOKENS_PER_OWNER} active tokens`);
    expect(refused[0]!.json.error.message).toContain("revoke one");

    // A revoked token makes room for one more, and only one.
    expect((await viewer.request(`/api/tokens/${made[0]!.json.data.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await make(viewer, "after a revoke")).status).toBe(201);
    expect((await make(viewer, "one too many")).status).toBe(409);

    // The cap is per person: someone else still makes his.
    expect((await make(await gateway.signIn("editor"), "another person's")).status).toBe(201);
  });
});
