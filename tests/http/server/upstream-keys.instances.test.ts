// Two portal instances on one PostgreSQL store, keys kept in the portal: a key saved on one instance is in use on
// the other within a few seconds without a restart (it polls the store), a rotation on one is followed by the
// other, and a key the upstream rejects at one instance shows the admins' banner on the other. The sandbox
// records which key each request carried; each instance's requests carry a tag of their own.
import { randomBytes } from "node:crypto";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { KEY_POLL_MS } from "@/lib/upstream/keys/ring";
import { CANARY } from "@/tests/support/canary";
import { startGateway, type GatewayProcess, type SignedInClient } from "@/tests/support/gateway";
import { setUpGateway } from "@/tests/support/set-up-gateway";

const FIRST = CANARY.portalReports;
const NEXT = CANARY.portalReportsNext;

const {
  sandbox,
  gateway: one,
  client: adminOne,
} = setUpGateway({
  store: "postgres",
  sandbox: { extraKeys: { reports: [FIRST, NEXT] } },
  env: { REPORTS_API_KEY: undefined, GATEHOUSE_KEK: randomBytes(32).toString("base64") },
  signIn: "admin",
  startTimeoutMs: 120_000,
});
// The second instance: the first one's environment, so its store and key-encryption key.
let two: GatewayProcess;
let adminTwo: SignedInClient;
beforeAll(async () => {
  two = await startGateway(one.env);
  adminTwo = await two.signIn("admin");
}, 120_000);
afterAll(async () => {
  await two?.stop();
});

let tags = 0;
/** Asks instance `client` for the reports list; returns its status and the key the sandbox saw it carry. */
async function keyCarriedBy(client: SignedInClient): Promise<{ status: number; key: string | null | undefined }> {
  const tag = `instance-check-${tags++}`;
  const { status } = await client.request(`/api/reports?search=${tag}`);
  const seen = (await sandbox.requests()).find((r) => r.query.search === tag);
  return { status, key: seen?.key };
}

/** Polls until `client`'s requests carry `key`; returns how long it took, in ms. */
async function untilCarried(client: SignedInClient, key: string): Promise<number> {
  const started = performance.now();
  for (let attempt = 0; attempt < 300; attempt++) {
    const seen = await keyCarriedBy(client);
    if (seen.status === 200 && seen.key === key) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the instance never carried the key ending ${key.slice(-4)}`);
}

describe("two instances sharing one store", () => {
  it("use a key saved on one of them, and follow a rotation, without a restart", async () => {
    expect((await adminTwo.request("/api/reports")).status).toBe(503);
    expect(
      (
        await adminOne.request("/api/admin/upstream-keys/reports", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ key: FIRST }),
        })
      ).status,
    ).toBe(201);
    expect(await keyCarriedBy(adminOne)).toEqual({ status: 200, key: FIRST });
    const firstSwitch = await untilCarried(adminTwo, FIRST);

    expect(
      (
        await adminOne.request("/api/admin/upstream-keys/reports", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ key: NEXT }),
        })
      ).status,
    ).toBe(201);
    expect(await keyCarriedBy(adminOne)).toEqual({ status: 200, key: NEXT });
    const secondSwitch = await untilCarried(adminTwo, NEXT);
    // How long the other instance took is a figure, not an assertion (it depends on the machine's load): about
    // one poll interval at most when it is idle.
    console.info(
      `the second instance switched after ${Math.round(firstSwitch)} ms and ${Math.round(secondSwitch)} ms (poll every ${KEY_POLL_MS} ms)`,
    );
    // Once switched, it stays switched.
    for (let i = 0; i < 5; i++) expect(await keyCarriedBy(adminTwo)).toEqual({ status: 200, key: NEXT });
  }, 60_000);

  it("show the banner on the other instance when the upstream rejects the key at one", async () => {
    await sandbox.setKey("reports", NEXT, false);
    expect((await adminOne.request("/api/reports")).status).toBe(502);
    for (let attempt = 0; attempt < 200; attempt++) {
      const html = (await adminTwo.request("/")).text;
      if (html.includes("key-rejected-banner")) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the other instance never showed the banner");
  }, 60_000);
});
