// A delivery's attempt as a job: sent, recorded, and its next attempt queued; and the cap on sends to one
// endpoint: while two of an endpoint's attempts are under way in this process, a third waits (it is retried
// shortly), and another endpoint's attempt goes at once.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterEach, describe, expect, it } from "vitest";

import { deliveryLog, dueDeliveries, enqueueEvent, MAX_SENDS_PER_ENDPOINT } from "@/lib/webhooks/deliveries";
import { attemptJob, deliveryJob } from "@/lib/webhooks/delivery-job";
import { createEndpoint } from "@/lib/webhooks/endpoints";

import { sqliteBackend, useStore } from "@/tests/support/store-backends";
import { until } from "@/tests/support/until";

const settings = { allowPrivate: true, sealKey: "a root key of at least thirty-two characters" };

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A receiver answering 204, or holding every request until the test ends (`hang`). */
async function receiver(hang: boolean): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    if (!hang) response.writeHead(204).end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server };
}

describe("the webhook delivery job", () => {
  const store = useStore(sqliteBackend);

  it("holds an endpoint to its cap of sends at once; another endpoint's attempt goes, and each next attempt is queued", async () => {
    const { db } = store();
    const slow = await receiver(true);
    const fast = await receiver(false);
    const stuck = (await createEndpoint(db, { url: slow.url, events: ["report.deleted"] }, settings, null)).endpoint;
    const healthy = (await createEndpoint(db, { url: fast.url, events: ["purchase.checked"] }, settings, null))
      .endpoint;
    for (let i = 0; i <= MAX_SENDS_PER_ENDPOINT; i++) await enqueueEvent(db, "report.deleted", { i });
    await enqueueEvent(db, "purchase.checked", {});
    const queued: string[] = [];
    const job = deliveryJob({
      db: async () => db,
      settings: async () => settings,
      timings: () => ({ speedup: 1 }),
      queue: async (_payload, options) => void queued.push(options.id),
    });
    const run = (delivery: Parameters<typeof attemptJob>[0]) =>
      job.handle(attemptJob(delivery).payload, { id: "test", retries: 0 });

    const due = await dueDeliveries(db, new Date());
    const toStuck = due.filter((delivery) => delivery.endpointId === stuck.id);
    const held = toStuck.slice(0, MAX_SENDS_PER_ENDPOINT).map(run);
    // The held ones reach the receiver, and wait there.
    let asked = 0;
    slow.server.on("request", () => (asked += 1));
    await until(() => asked === MAX_SENDS_PER_ENDPOINT, "the slow receiver holds both");
    expect(await run(toStuck[MAX_SENDS_PER_ENDPOINT]!)).toMatchObject({ kind: "retry" });
    expect(await run(due.find((delivery) => delivery.endpointId === healthy.id)!)).toEqual({ kind: "done" });
    expect((await deliveryLog(db, healthy.id))[0]).toMatchObject({ status: "delivered", attempts: 1 });

    slow.server.closeAllConnections();
    expect(await Promise.all(held)).toEqual([{ kind: "done" }, { kind: "done" }]);
    // The failed ones wait for their next attempt, each queued as a job.
    expect(queued).toHaveLength(MAX_SENDS_PER_ENDPOINT);
    expect((await deliveryLog(db, stuck.id)).filter((delivery) => delivery.attempts === 1)).toHaveLength(2);
  });
});
