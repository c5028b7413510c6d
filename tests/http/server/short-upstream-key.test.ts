// A short upstream key (8 characters) in the environment, over real HTTP against the production build: the admin
// API names it by a keyed fingerprint with no last 4, and when the upstream rejects it the webhook receiver gets
// that same fingerprint — which no plain hash of the key gives, so the receiver cannot try candidates offline.
import { createHash } from "node:crypto";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { setUpGateway } from "@/tests/support/set-up-gateway";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";

const SHORT = "k3Y9zQ2a";
const UNKEYED = createHash("sha256").update(SHORT).digest("hex").slice(0, 8);

const { sandbox, client: admin } = setUpGateway({
  signIn: "admin",
  sandbox: { extraKeys: { items: { [SHORT]: "main" } } },
  env: { ITEMS_API_KEY: SHORT, WEBHOOK_ALLOW_PRIVATE: "1" },
  startTimeoutMs: 120_000,
});
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  const created = await admin.request("/api/admin/webhooks", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ url: receiver.url, events: ["upstream.key_rejected"] }),
  });
  expect(created.status, created.text).toBe(201);
  receiver.secrets = [created.json.data.secret];
});

afterAll(async () => {
  await receiver?.close();
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
