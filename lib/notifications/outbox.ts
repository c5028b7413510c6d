// Writing a message for a recipient: held for the merge window (and, for a person, until his quiet hours end), so
// that repeats with the same merge key join it while it is still held ("acme.io/pricing got worse, and 2 more
// pages of acme.io"). The delivery sweep (./index.ts) moves due rows from held to pending, which ends their
// merging; a merge is an update of a row still held (and with the messages read), so a row the sweep took
// meanwhile is left alone and a new one is written (./deliveries.ts insertDelivery, as every delivery is).
import "server-only";

import type { NotificationDeliveryStatus } from "@/lib/contract/values";
import type { Db } from "@/lib/db";

import { insertDelivery } from "./deliveries";
import type { NotificationMessage } from "./message";
import { quietUntil } from "./quiet-hours";
import type { Recipient } from "./recipients";

/** A row the rules write, and the only one they merge into: the delivery sweep (./index.ts) moves it on once due. */
const HELD = "held" satisfies NotificationDeliveryStatus;

/** When a message for this recipient may go: after the merge window, and after his quiet hours. */
export function notBeforeFor(recipient: Recipient, now: Date, mergeWindowMs: number): Date {
  const window = new Date(now.getTime() + mergeWindowMs);
  if (recipient.kind !== "user" || recipient.zone === null) return window;
  const quiet = quietUntil(now, recipient.zone, recipient.quietStart, recipient.quietEnd);
  return quiet && quiet > window ? quiet : window;
}

/** Adds `message` to the recipient's held delivery with the same merge key, or writes a new held one. Returns "merged" or "new". */
export async function deliver(
  db: Db,
  recipient: Recipient,
  message: NotificationMessage,
  mergeKey: string | null,
  now: Date,
  mergeWindowMs: number,
): Promise<"merged" | "new"> {
  if (mergeKey !== null) {
    for (let attempt = 0; attempt < 3; attempt++) {
      const held = await db
        .selectFrom("notification_deliveries")
        .select(["id", "messages"])
        .where("recipient_kind", "=", recipient.kind)
        .where("recipient_id", "=", recipient.id)
        .where("channel_kind", "=", recipient.channelKind)
        .where("merge_key", "=", mergeKey)
        .where("status", "=", HELD)
        .where("not_before", ">", now.toISOString())
        .orderBy("created_at", "desc")
        .executeTakeFirst();
      if (!held) break;
      const messages = [...(JSON.parse(held.messages) as NotificationMessage[]), message];
      const updated = await db
        .updateTable("notification_deliveries")
        .set({ messages: JSON.stringify(messages) })
        .where("id", "=", held.id)
        .where("status", "=", HELD)
        .where("messages", "=", held.messages)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 1) return "merged";
    }
  }
  await insertDelivery(
    db,
    {
      recipientKind: recipient.kind,
      recipientId: recipient.id,
      channelKind: recipient.channelKind,
      topic: message.topic,
      mergeKey,
      messages: [message],
      status: HELD,
      notBefore: notBeforeFor(recipient, now, mergeWindowMs),
    },
    now,
  );
  return "new";
}
