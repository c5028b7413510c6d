import { ApiError } from "@/lib/api/errors";
import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { openUnsubscribeToken, unsubscribe } from "@/lib/notifications/unsubscribe";

// RFC 8058: the mail client POSTs here in one click, without a session; the sealed token is the proof.
export const POST = defineRoute(operations.unsubscribeNotifications, async ({ server, query, audit }) => {
  const check = openUnsubscribeToken(query.token, server.config.dataKey);
  if (!check.ok) throw new ApiError("invalid_input", check.reason, { fields: { token: check.reason } });
  const user = await server.db
    .selectFrom("users")
    .select(["id", "email"])
    .where("id", "=", check.userId)
    .executeTakeFirst();
  if (!user)
    throw new ApiError("invalid_input", "This unsubscribe link is for an account that is no longer in Gatehouse.", {
      fields: { token: "names an account no longer in Gatehouse" },
    });
  const message = await unsubscribe(server.db, user.id, check.scope);
  await audit({
    userId: user.id,
    userEmail: user.email,
    action: "notification.unsubscribe",
    target: { type: "user", id: user.id, label: user.email },
    outcome: "success",
    detail: { scope: check.scope },
  });
  return ok({ unsubscribed: check.scope, message });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
