// The licence API under a crowd (issue 34): two `next start` instances on one PostgreSQL and one Redis, the sandbox
// behind both. 200 installed copies activate at once, spread over both instances, 20 for each of 10 purchase codes
// of three items: 5 codes never seen before, then (as soon as a copy has been told the budget is spent) 5 codes
// staff checked valid a while ago. The licence API's share of the item API budget is one call a minute
// (ITEMS_API_CALLS_PER_MINUTE 2 × LICENCE_API_MAX_SHARE 0.5), fewer than the new codes:
// - the sandbox sees at most one validation per code, and no more than the budget in all;
// - the code that got the slot answers 200 or 403 activation_limit_reached, never more counted activations than
//   its limit (read back through validate and from the store), every copy of one domain the same answer;
// - the new codes without a slot answer 503 server_busy with Retry-After on every copy (no burst upstream);
// - the codes seen valid before answer from their last verdict (verdict.fresh false), no call, limits held;
// - every answer is signed and verifies with the published key.
// Counts, not clocks: the budget's window (60 s, opened by the crowd's one call) outlasts the test's own timeout.
import { createPublicKey, verify, type KeyObject } from "node:crypto";

import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { parseDatabaseUrl } from "@/lib/config/store";
import { openDb, type Store } from "@/lib/db";
import { saveLicencePolicy } from "@/lib/licences/policies";
import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";
import { seedSellers } from "@/lib/sandbox/seed";

import { sandboxEnv, startGateway, type GatewayProcess } from "@/tests/support/gateway";
import { startTestPostgres, type TestPostgres } from "@/tests/support/postgres";
import { startTestRedis, type TestRedis } from "@/tests/support/redis";
import { upstreamCalls, VALIDATION } from "@/tests/support/resilience";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";
import { CANARY } from "@/tests/support/canary";

/** The licence API's calls to the item API: 2 a minute × 0.5, one call per window of 60 s. */
const BUDGET = 1;
const BUDGET_WINDOW_SECONDS = 60;
const COPIES_PER_CODE = 20;
const LIMITS = { regular: 3, extended: 4 };
/** Each code's copies run on these domains in turn: five that count (more than any limit), one never counted. */
const DOMAINS = ["shop-a.example", "shop-b.example", "shop-c.example", "shop-d.example", "shop-e.example"];
const NEVER_COUNTED = "staging.shop.example";

/** The seeded sales of the main seller's first three items (4 + 3 + 3 codes): in turns, new and seen before. */
const SALES = [...seedSellers().main.purchases.entries()];
const ITEM_IDS = [...new Set(SALES.map(([, purchase]) => purchase.item.id))].slice(0, 3);
const CODES = SALES.filter(([, purchase]) => ITEM_IDS.includes(purchase.item.id)).map(([code]) => code);
const SEEN_BEFORE = CODES.filter((_, i) => i % 2 === 0);
const NEW_CODES = CODES.filter((_, i) => i % 2 === 1);
const ITEM_OF = new Map(SALES.map(([code, purchase]) => [code, purchase.item.id]));
const itemOf = (code: string): number => ITEM_OF.get(code)!;

interface Answer {
  code: string;
  domain: string;
  status: number;
  retryAfter: string | null;
  text: string;
  signature: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answer's JSON, read field by field
  json: any;
}

let sandbox: TestSandbox;
let postgres: TestPostgres;
let redis: TestRedis;
let databaseUrl: string;
let store: Store;
const instances: GatewayProcess[] = [];
let publicKey: KeyObject;

/** One copy's call, as a copy makes it: no cookie, no token. */
async function licenceCall(
  instance: GatewayProcess,
  op: "activate" | "validate",
  code: string,
  domain: string,
): Promise<Answer> {
  const res = await fetch(`${instance.url}/api/licences/${op}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ purchase_code: code, item_id: itemOf(code), instance: { domain } }),
  });
  const text = await res.text();
  return {
    code,
    domain,
    status: res.status,
    retryAfter: res.headers.get("retry-after"),
    text,
    signature: res.headers.get("gatehouse-signature") ?? "",
    json: JSON.parse(text),
  };
}

/** The copies of one code: COPIES_PER_CODE of them over the domains in turn, alternating between the instances. */
const copiesOf = (code: string, first: number) =>
  Array.from({ length: COPIES_PER_CODE }, (_, j) => ({
    code,
    domain: j % 6 === 5 ? NEVER_COUNTED : DOMAINS[j % 6]!,
    instance: instances[(first + j) % 2]!,
  }));

beforeAll(async () => {
  [sandbox, postgres, redis] = await Promise.all([
    startTestSandbox({ extraKeys: { reports: [CANARY.reports], items: { [CANARY.items]: "main" } } }),
    startTestPostgres(),
    startTestRedis(),
  ]);
  databaseUrl = await postgres.createDatabase();
  const env = sandboxEnv(sandbox, {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    // The production item cache (sandboxEnv turns it off): a verdict stands for 60 s, copies share one call.
    UPSTREAM_CACHE_ITEMS_TTL_MS: "60000",
    ITEMS_API_CALLS_PER_MINUTE: "2",
    LICENCE_API_MAX_SHARE: "0.5",
    // Every copy comes from 127.0.0.1: the per-address and per-item limits are not what this test is about.
    LICENCE_RATE_LIMIT_PER_IP: "10000",
    LICENCE_RATE_LIMIT_PER_ITEM: "10000",
    LICENCE_RATE_LIMIT_PER_CODE: "1000",
  });
  instances.push(
    ...(await Promise.all([
      startGateway({ ...env, INSTANCE_ID: "one" }),
      startGateway({ ...env, INSTANCE_ID: "two" }),
    ])),
  );
  store = await openDb(parseDatabaseUrl(databaseUrl));
}, 120_000);

afterAll(async () => {
  await store?.close();
  await Promise.allSettled(instances.map((instance) => instance.stop()));
  await Promise.allSettled([redis?.stop(), postgres?.stop(), sandbox?.close()]);
});

describe("200 copies activating at once through two instances", () => {
  it(
    "ask the item API at most once per code and within the budget; limits hold; the rest wait or use the last verdict",
    async () => {
      expect(CODES).toHaveLength(10);
      expect(NEW_CODES.length).toBeGreaterThan(BUDGET);
      expect(CODES).toContain(FIXED_PURCHASE_CODES.active);
      for (const itemId of ITEM_IDS) {
        await saveLicencePolicy(
          store.db,
          itemId,
          {
            enabled: true,
            limits: LIMITS,
            never_count: ["localhost", "*.test", "staging.*"],
            revoked_deactivates: true,
          },
          "admin@gatehouse.test",
        );
      }
      const keys = await instances[1]!.request("/.well-known/gatehouse-licence-keys.json");
      expect(keys.status, keys.text).toBe(200);
      publicKey = createPublicKey(keys.json.keys[0].pem);

      // The codes seen valid before: checked by staff (the checker records each as a known purchase), their verdicts
      // since grown older than the cache's lifetime (set back 10 minutes), so that the licence API would ask again.
      const admin = await instances[0]!.signIn("admin");
      for (const code of SEEN_BEFORE) {
        const checked = await admin.request("/api/purchases/validate", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ purchase_code: code }),
        });
        expect(checked.status, checked.text).toBe(200);
        expect(checked.json.data.valid).toBe(true);
      }
      const earlier = new Date(Date.now() - 10 * 60_000).toISOString();
      const aged = await store.db
        .updateTable("known_purchases")
        .set({ verified_at: earlier, last_valid_at: earlier })
        .executeTakeFirst();
      expect(Number(aged.numUpdatedRows)).toBe(SEEN_BEFORE.length);
      await sandbox.clearRequests();

      // The crowd: the new codes' copies at once; the copies of the codes seen before go as soon as a copy has been
      // told the budget is spent, so that they find no slot left (whichever new code won it).
      let budgetSpent!: () => void;
      const spentSeen = new Promise<void>((resolve) => (budgetSpent = resolve));
      const crowd = Promise.all(
        NEW_CODES.flatMap((code, i) => copiesOf(code, i)).map(async ({ code, domain, instance }) => {
          const answer = await licenceCall(instance, "activate", code, domain);
          if (answer.status === 503) budgetSpent();
          return answer;
        }),
      );
      const noneRefused = crowd.then(() => "the new codes' copies ended without any told to wait");
      expect(await Promise.race([spentSeen.then(() => "spent"), noneRefused])).toBe("spent");
      const later = await Promise.all(
        SEEN_BEFORE.flatMap((code, i) => copiesOf(code, i)).map(({ code, domain, instance }) =>
          licenceCall(instance, "activate", code, domain),
        ),
      );
      const answers = await crowd;
      expect(answers.length + later.length).toBe(200);

      // Counted at the sandbox: at most one validation per code, no more than the budget, none for a code seen before.
      const calls = (await upstreamCalls(sandbox, "POST", VALIDATION)).map((call) => String(call.form?.purchase_code));
      const asked = new Set(calls);
      expect(calls).toHaveLength(asked.size);
      expect(calls.length).toBeGreaterThan(0);
      expect(calls.length).toBeLessThanOrEqual(BUDGET);
      for (const code of asked) expect(NEW_CODES).toContain(code);

      // Every answer, refusals too, signed by the published key over its exact bytes.
      for (const answer of [...answers, ...later]) {
        expect(verify(null, Buffer.from(answer.text), publicKey, Buffer.from(answer.signature, "base64"))).toBe(true);
      }

      const counted = await countedActivations();
      for (const code of NEW_CODES) {
        const mine = answers.filter((answer) => answer.code === code);
        expect(mine).toHaveLength(COPIES_PER_CODE);
        if (asked.has(code)) {
          const allowed = expectLimitHeld(code, mine, true);
          expect(counted.get(activationKey(code))).toBe(Math.min(DOMAINS.length, allowed));
          continue;
        }
        // No slot: every copy told when to come back, none let through without a verdict.
        for (const answer of mine) {
          expect(answer.status, answer.text).toBe(503);
          expect(answer.json.error.code).toBe("server_busy");
          expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
          expect(Number(answer.retryAfter)).toBeLessThanOrEqual(BUDGET_WINDOW_SECONDS);
        }
        expect(counted.get(activationKey(code)) ?? 0).toBe(0);
      }

      // The codes seen before: their last verdicts, marked, and their limits held all the same.
      for (const code of SEEN_BEFORE) {
        const mine = later.filter((answer) => answer.code === code);
        expect(mine).toHaveLength(COPIES_PER_CODE);
        const allowed = expectLimitHeld(code, mine, false);
        for (const answer of mine.filter((each) => each.status === 200))
          expect(answer.json.data.verdict).toEqual({ fresh: false, as_of: earlier });
        expect(counted.get(activationKey(code))).toBe(Math.min(DOMAINS.length, allowed));
      }

      // Read back through the API as a copy would (validate, another domain): the counts the store holds. The codes
      // seen before answer from their last verdict again; nothing more is asked of the item API.
      for (const code of [...asked, ...SEEN_BEFORE]) {
        const readBack = await licenceCall(instances[1]!, "validate", code, "read-back.example");
        expect(readBack.status, readBack.text).toBe(200);
        const { used, allowed } = readBack.json.data.licence.activations;
        expect(used).toBe(Math.min(DOMAINS.length, allowed));
        expect(readBack.json.data).toMatchObject({ active: false, activation: null });
      }
      expect(await upstreamCalls(sandbox, "POST", VALIDATION)).toHaveLength(calls.length);
    },
    BUDGET_WINDOW_SECONDS * 1000,
  );
});

/** Active counted activations per item and code (its last 4 characters), straight from the store. */
async function countedActivations(): Promise<Map<string, number>> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const rows = await db.query<{ item_id: string; code_last4: string; n: string }>(
      "select item_id, code_last4, count(*) as n from licence_activations where status = 'active' and counted = 1 group by item_id, code_last4",
    );
    return new Map(rows.rows.map((row) => [`${row.item_id}/${row.code_last4}`, Number(row.n)]));
  } finally {
    await db.end();
  }
}

const activationKey = (code: string) => `${itemOf(code)}/${code.slice(-4)}`;

/**
 * One code's answers: 200 or 403 activation_limit_reached only; every copy of one domain the same answer; as many
 * counted domains activated as the limit allows (never more), the never-counted domain always. Returns the limit.
 */
function expectLimitHeld(code: string, mine: Answer[], fresh: boolean): number {
  const licensed = mine.filter((answer) => answer.status === 200);
  expect(licensed.length).toBeGreaterThan(0);
  const allowed = licensed[0]!.json.data.licence.activations.allowed as number;
  expect(Object.values(LIMITS)).toContain(allowed);
  for (const answer of mine) {
    expect([200, 403], `${code.slice(-4)} ${answer.domain}: ${answer.text}`).toContain(answer.status);
    if (answer.status === 403) expect(answer.json.error.code).toBe("activation_limit_reached");
    else {
      expect(answer.json.data.licence.activations.used).toBeLessThanOrEqual(allowed);
      expect(answer.json.data.verdict.fresh).toBe(fresh);
    }
  }
  const byDomain = new Map<string, Set<number>>();
  for (const answer of mine) byDomain.set(answer.domain, (byDomain.get(answer.domain) ?? new Set()).add(answer.status));
  for (const [domain, statuses] of byDomain) expect([...statuses], `${code.slice(-4)} ${domain}`).toHaveLength(1);
  const activated = DOMAINS.filter((domain) => byDomain.get(domain)?.has(200));
  expect(activated).toHaveLength(Math.min(DOMAINS.length, allowed));
  expect([...byDomain.get(NEVER_COUNTED)!]).toEqual([200]);
  return allowed;
}
