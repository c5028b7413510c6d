// The notifications' operations (issue 35) between the route files and lib/notifications: a person may subscribe
// only to the topics his role allows (403 naming them), a channel's id must exist (404).
import "server-only";

import type { Caller } from "@/lib/auth/permissions";
import type { NotificationSubscription } from "@/lib/contract/notification-subscriptions";
import { NOTIFICATION_TOPICS } from "@/lib/contract/values";
import type { Db } from "@/lib/db";
import { channelExists, getSubscriptions, setSubscriptions } from "@/lib/notifications/subscriptions";
import { mayHaveTopic, topicsFor } from "@/lib/notifications/topics";

import { ApiError } from "./errors";

export async function mySubscriptions(db: Db, user: { id: string }, caller: Caller) {
  return { subscriptions: await getSubscriptions(db, "user", user.id), topics: topicsFor(caller) };
}

export async function replaceMySubscriptions(
  db: Db,
  user: { id: string },
  caller: Caller,
  subscriptions: readonly NotificationSubscription[],
) {
  const refused: Record<string, string> = {};
  subscriptions.forEach((s, index) => {
    if (!mayHaveTopic(caller, s.topic))
      refused[`subscriptions.${index}.topic`] = `Your role (${caller.role}) is not told of ${s.topic}.`;
  });
  const topics = [...new Set(subscriptions.filter((s) => !mayHaveTopic(caller, s.topic)).map((s) => s.topic))];
  if (topics.length > 0)
    throw new ApiError(
      "forbidden",
      `Your role (${caller.role}) cannot subscribe to ${topics.join(", ")}. The topics it allows: ${topicsFor(caller).join(", ")}.`,
      { fields: refused },
    );
  return { subscriptions: await setSubscriptions(db, "user", user.id, subscriptions), topics: topicsFor(caller) };
}

async function existingChannel(db: Db, id: string): Promise<void> {
  if (!(await channelExists(db, id)))
    throw new ApiError(
      "not_found",
      `There is no notification channel with id ${id}: see the channels an admin has set.`,
    );
}

export async function channelSubscriptions(db: Db, id: string) {
  await existingChannel(db, id);
  return { subscriptions: await getSubscriptions(db, "channel", id), topics: [...NOTIFICATION_TOPICS] };
}

export async function replaceChannelSubscriptions(
  db: Db,
  id: string,
  subscriptions: readonly NotificationSubscription[],
) {
  await existingChannel(db, id);
  return { subscriptions: await setSubscriptions(db, "channel", id, subscriptions), topics: [...NOTIFICATION_TOPICS] };
}
