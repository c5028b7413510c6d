import { describe, expect, it } from "vitest";

import {
  deliveryLog,
  deliveryToSend,
  insertDelivery,
  recordAttempt,
  takeDueDeliveries,
} from "@/lib/notifications/deliveries";
import type { NotificationMessage } from "@/lib/notifications/message";

import { sqliteBackend, useStore } from "@/tests/support/store-backends";

const message: NotificationMessage = {
  topic: "upstream.down",
  title: "The item API is down",
  text: "It has not answered for 10 minutes.",
  since: "2026-12-28T09:00:00.000Z",
  link: "/admin/upstream",
  tone: "bad",
};
const fast = { speedup: 1000 };

describe("notification deliveries", () => {
  const store = useStore(sqliteBackend);
  const queue = (db: ReturnType<typeof store>["db"], at: Date, status: "held" | "pending" = "held") =>
    insertDelivery(db, {
      recipientKind: "channel",
      recipientId: "channel-1",
      channelKind: "slack",
      topic: "upstream.down",
      messages: [message],
      status,
      notBefore: at,
    });

  it("ends the holding of what is due (no merge after), and answers what is pending by the window's end", async () => {
    const { db } = store();
    const now = new Date("2026-12-28T10:00:00.000Z");
    const due = await queue(db, new Date("2026-12-28T09:59:00.000Z"));
    const later = await queue(db, new Date("2026-12-28T10:05:00.000Z"));
    const soon = await queue(db, new Date("2026-12-28T10:00:10.000Z"), "pending");
    const taken = await takeDueDeliveries(db, new Date(now.getTime() + 15_000), now);
    expect(taken.map((each) => each.id)).toEqual([due, soon]);
    const statuses = await db.selectFrom("notification_deliveries").select(["id", "status"]).execute();
    expect(Object.fromEntries(statuses.map((row) => [row.id, row.status]))).toEqual({
      [due]: "pending",
      [later]: "held",
      [soon]: "pending",
    });
  });

  it("records each attempt once: retried after a wait, then sent; or dropped, never retried", async () => {
    const { db } = store();
    const id = await queue(db, new Date(), "pending");
    const first = (await deliveryToSend(db, id, 0))!;
    expect(first.messages).toEqual([message]);
    const failed = await recordAttempt(db, first, { ok: false, error: "not sent: answered 500" }, fast);
    expect(failed.recorded).toBe(true);
    expect(failed.next).toMatchObject({ id, attempts: 1 });
    // A second run of the same attempt writes nothing.
    expect(await recordAttempt(db, first, { ok: true }, fast)).toEqual({ recorded: false, next: null });
    const second = (await deliveryToSend(db, id, 1))!;
    expect(await recordAttempt(db, second, { ok: true }, fast)).toMatchObject({ recorded: true, next: null });
    const [logged] = await deliveryLog(db, { kind: "channel", id: "channel-1" });
    expect(logged).toMatchObject({ status: "sent", attempts: 2, title: "The item API is down", not_before: null });
    expect(logged!.log.map((attempt) => attempt.ok).sort()).toEqual([false, true]);

    const gone = await queue(db, new Date(), "pending");
    const dropped = await recordAttempt(
      db,
      (await deliveryToSend(db, gone, 0))!,
      {
        ok: false,
        error: "dropped: the channel was removed",
        drop: true,
      },
      fast,
    );
    expect(dropped.next).toBeNull();
    expect((await deliveryLog(db, { kind: "channel", id: "channel-1" }))[0]).toMatchObject({
      id: gone,
      status: "dropped",
      last_error: "dropped: the channel was removed",
    });
  });

  it("fails a delivery after its last retry", async () => {
    const { db } = store();
    const id = await queue(db, new Date(), "pending");
    for (let attempt = 0; ; attempt++) {
      const delivery = await deliveryToSend(db, id, attempt);
      if (!delivery) break;
      await recordAttempt(db, delivery, { ok: false, error: "not sent" }, fast);
    }
    const [logged] = await deliveryLog(db, { kind: "channel", id: "channel-1" });
    expect(logged).toMatchObject({ status: "failed", attempts: 8 });
  });
});
