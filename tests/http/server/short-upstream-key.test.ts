// A short upstream key (8 characters) in the environment, over real HTTP against the production build: the admin
// API names it by a keyed fingerprint with no last 4, and when the upstream rejects it the webhook receiver gets
// that same fingerprint — which no plain hash of the key gives, so the receiver cannot try candidates offline.
import { createHash } from "node:crypto";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { CANARY } from "@/tests/support/canary";
import { sandboxEnv, startGateway, type GatewayProcess, type SignedInClient } from "@/tests/support/gateway";
import { startTestSandbox, type TestSandbox } from "@/tests/support/sandbox";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";

const SHORT = "k3Y9zQ2a";
const UNKEYED = createHash("sha256").update(SHORT).digest("hex").slice(0, 8);

let sandbox: TestSandbox;
let receiver: WebhookReceiver;
let gateway: GatewayProcess;
let admin: SignedInClient;

beforeAll(async () => {
  sandbox = await startTestSandbox({ extraKeys: { reports: [CANARY.reports], items: { [SHORT]: "main" } } });
  receiver = await startWebhookReceiver();
  gateway = await startGateway(sandboxEnv(sandbox, { ITEMS_API_KEY: SHORT, WEBHOOK_ALLOW_PRIVATE: "1" }));
  admin = await gateway.signIn("admin");
  const created = await admin.request("/api/admin/webhooks", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ url: receiver.url, events: ["upstream.key_rejected"] }),
  });
  expect(created.status, created.text).toBe(201);
  receiver.secrets = [created.json.data.secret];
}, 120_000);

afterAll(async () => {
  await gateway?.stop();
  await receiver?.close();
  await sandbox?.close();
});

describe("a short upstream key", () => {
  it("is named by a keyed fingerprint and no last 4, on the admin API and in the key_rejected webhook", async () => {
    const areas = (await admin.request("/api/admin/upstream-keys")).json.data as Array<{
      area: string;
      key: { fingerprint: string; last4: string | null } | null;
    }>;
    const key = areas.find((area) => area.area === "items")!.key!;
    expect(key.last4).toBeNull();
    expect(key.fingerprint).toMatch(/^[0-9a-f]{8}$/);
    expect(key.fingerprint).not.toBe(UNKEYED);

    await sandbox.setKey("items", SHORT, false);
    expect((await admin.request("/api/items")).status).toBe(502);
    const [delivery] = await receiver.until(1);
    const event = JSON.parse(delivery!.body) as { type: string; data: Record<string, unknown> };
    expect(event).toMatchObject({
      type: "upstream.key_rejected",
      data: { area: "items", fingerprint: key.fingerprint },
    });
    expect(delivery!.body).not.toContain(SHORT.slice(-4));
    expect(delivery!.body).not.toContain(UNKEYED);
  });
});
