// A delivery's attempt as a job: rendered for its channel and sent to a receiver on loopback, recorded, and its
// next attempt queued after a failure; a recipient gone, disabled or without e-mail is dropped with the reason.
import { createServer, type ServerResponse, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { afterEach, describe, expect, it } from "vitest";

import { createChannel, updateChannel } from "@/lib/notifications/channels";
import { deliveryLog, insertDelivery, takeDueDeliveries } from "@/lib/notifications/deliveries";
import { attemptJob, MAX_SENDS_PER_CHANNEL, notificationJob } from "@/lib/notifications/delivery-job";
import type { NotificationMessage } from "@/lib/notifications/message";

import { sqliteBackend, useStore } from "@/tests/support/store-backends";
import { until } from "@/tests/support/until";

const settings = { allowPrivate: true, sealKey: "a root key of at least thirty-two characters", publicOrigin: null };
const message: NotificationMessage = {
  topic: "upstream.key_rejected",
  title: "The item API rejected its key",
  text: "Since 09:00 every call is refused.",
  since: "2026-12-28T09:00:00.000Z",
  link: "/admin/upstream",
  tone: "bad",
};

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A receiver answering `statuses` in turn (then 200), keeping the bodies. */
async function receiver(statuses: number[]): Promise<{ url: string; bodies: string[] }> {
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      bodies.push(body);
      response.writeHead(statuses.shift() ?? 200).end("answered");
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/secret`, bodies };
}

/** A receiver that holds every request, counting those in flight (and the most at once), until `release()`. */
async function slowReceiver() {
  const waiting: ServerResponse[] = [];
  const seen = { inFlight: 0, most: 0, total: 0 };
  const server = createServer((request, response) => {
    request.resume();
    seen.inFlight += 1;
    seen.total += 1;
    seen.most = Math.max(seen.most, seen.inFlight);
    response.on("finish", () => (seen.inFlight -= 1));
    waiting.push(response);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/slow`,
    seen,
    release: () => {
      for (const response of waiting.splice(0)) response.writeHead(200).end("ok");
    },
  };
}

describe("the notification delivery job", () => {
  const store = useStore(sqliteBackend);

  it("sends a Slack delivery, retries a failure at its next attempt, and records both", async () => {
    const { db } = store();
    const hook = await receiver([503]);
    const channel = await createChannel(db, { kind: "slack", name: "#ops", target: hook.url }, settings, null);
    const id = await insertDelivery(db, {
      recipientKind: "channel",
      recipientId: channel.id,
      channelKind: "slack",
      topic: message.topic,
      messages: [message],
      status: "held",
      notBefore: new Date(),
    });
    const queued: Array<Parameters<typeof attemptJob>[0]> = [];
    const job = notificationJob({
      db: async () => db,
      settings: async () => settings,
      timings: () => ({ speedup: 1000, sweepMs: 100, tickMs: 30_000 }),
      queue: async (payload, options) =>
        void queued.push({ id: payload.delivery, attempts: payload.attempts, notBefore: options.runAt.toISOString() }),
    });
    const [due] = await takeDueDeliveries(db, new Date());
    expect(await job.handle(attemptJob(due!).payload, { id: "t", retries: 0 })).toEqual({ kind: "done" });
    expect(queued).toHaveLength(1);
    // The same attempt run again (a repeated job) sends nothing.
    await job.handle(attemptJob(due!).payload, { id: "t", retries: 0 });
    expect(hook.bodies).toHaveLength(1);
    await job.handle(attemptJob(queued[0]!).payload, { id: "t", retries: 0 });
    expect(hook.bodies).toHaveLength(2);
    expect(JSON.parse(hook.bodies[1]!)).toMatchObject({ text: "The item API rejected its key" });
    const [logged] = await deliveryLog(db, { kind: "channel", id: channel.id });
    expect(logged).toMatchObject({ id, status: "sent", attempts: 2 });
    expect(logged!.log[1]!.error).toMatch(/^not sent: the Slack webhook answered 503 \(answered\)$/);
  });

  it("drops a delivery to a disabled channel, to a person gone, disabled or with e-mail off, and e-mail without a mail server", async () => {
    const { db } = store();
    const hook = await receiver([]);
    const channel = await createChannel(db, { kind: "teams", name: "Web", target: hook.url }, settings, null);
    await updateChannel(db, channel.id, { enabled: false }, settings);
    const job = notificationJob({
      db: async () => db,
      settings: async () => settings,
      timings: () => ({ speedup: 1000, sweepMs: 100, tickMs: 30_000 }),
      queue: async () => undefined,
    });
    const send = async (recipientKind: "user" | "channel", recipientId: string, channelKind: "teams" | "email") => {
      const id = await insertDelivery(db, {
        recipientKind,
        recipientId,
        channelKind,
        topic: message.topic,
        messages: [message],
        status: "pending",
        notBefore: new Date(),
      });
      await job.handle({ delivery: id, attempts: 0 }, { id: "t", retries: 0 });
      return db
        .selectFrom("notification_deliveries")
        .select(["status", "last_error"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
    };
    expect(await send("channel", channel.id, "teams")).toEqual({
      status: "dropped",
      last_error: "dropped: the channel is disabled",
    });
    expect(await send("user", "nobody", "email")).toEqual({
      status: "dropped",
      last_error: "dropped: the person is no longer in Gatehouse",
    });
    const at = new Date().toISOString();
    for (const [id, disabled] of [
      ["quiet", 0],
      ["off", 1],
    ] as const)
      await db
        .insertInto("users")
        .values({
          id,
          email: `${id}@example.com`,
          name: id,
          role: "editor",
          password_hash: "x",
          disabled,
          session_version: 1,
          created_at: at,
          updated_at: at,
        })
        .execute();
    await db
      .insertInto("notification_preferences")
      .values({ user_id: "quiet", email_enabled: 0, updated_at: at })
      .execute();
    expect(await send("user", "quiet", "email")).toEqual({
      status: "dropped",
      last_error: "dropped: the person switched e-mail off",
    });
    expect(await send("user", "off", "email")).toEqual({
      status: "dropped",
      last_error: "dropped: the person's account is disabled",
    });
    const mail = await createChannel(db, { kind: "email", name: "Ops", target: "ops@example.com" }, settings, null);
    expect(await send("channel", mail.id, "email")).toEqual({
      status: "dropped",
      last_error: "dropped: no mail server is set (Admin → Notification channels)",
    });
    expect(hook.bodies).toEqual([]);
  });

  it("holds a slow channel to its cap of sends at once; another channel's delivery goes meanwhile", async () => {
    const { db } = store();
    const slow = await slowReceiver();
    const fast = await receiver([]);
    const stuck = await createChannel(db, { kind: "slack", name: "#slow", target: slow.url }, settings, null);
    const healthy = await createChannel(db, { kind: "teams", name: "Web", target: fast.url }, settings, null);
    const add = (recipientId: string, channelKind: "slack" | "teams") =>
      insertDelivery(db, {
        recipientKind: "channel",
        recipientId,
        channelKind,
        topic: message.topic,
        messages: [message],
        status: "pending",
        notBefore: new Date(),
      });
    const toStuck: string[] = [];
    for (let i = 0; i < MAX_SENDS_PER_CHANNEL + 2; i++) toStuck.push(await add(stuck.id, "slack"));
    const toHealthy = await add(healthy.id, "teams");
    const job = notificationJob({
      db: async () => db,
      settings: async () => settings,
      timings: () => ({ speedup: 1000, sweepMs: 100, tickMs: 30_000 }),
      queue: async () => undefined,
    });
    const run = (delivery: string) => job.handle({ delivery, attempts: 0 }, { id: "t", retries: 0 });

    // Every delivery to the slow channel asked at once: the cap's worth reach it, the rest are told to retry.
    const runs = toStuck.map(run);
    await until(() => slow.seen.inFlight === MAX_SENDS_PER_CHANNEL, "the slow channel holds the cap's worth");
    expect(await Promise.all(runs.slice(MAX_SENDS_PER_CHANNEL))).toEqual([
      { kind: "retry", afterMs: 500 },
      { kind: "retry", afterMs: 500 },
    ]);
    expect(await run(toHealthy)).toEqual({ kind: "done" });
    expect(fast.bodies).toHaveLength(1);
    expect(slow.seen).toMatchObject({ inFlight: MAX_SENDS_PER_CHANNEL, total: MAX_SENDS_PER_CHANNEL });

    slow.release();
    expect(await Promise.all(runs.slice(0, MAX_SENDS_PER_CHANNEL))).toEqual([{ kind: "done" }, { kind: "done" }]);
    // A place is free again: a delivery told to wait is sent when it asks again.
    const again = run(toStuck[MAX_SENDS_PER_CHANNEL]!);
    await until(() => slow.seen.total === MAX_SENDS_PER_CHANNEL + 1, "the retried delivery reaches the channel");
    slow.release();
    expect(await again).toEqual({ kind: "done" });
    expect(slow.seen.most).toBe(MAX_SENDS_PER_CHANNEL);
  });
});
