// The operation's webhook event (its `event` in lib/api/operations), emitted after a success is known: the change
// upstream has happened. Stored as deliveries before the answer goes, so a crash right after loses none.
import "server-only";

import { purchaseCodeTarget } from "@/lib/auth/audit";
import { emitEvent } from "@/lib/events";
import { describeError, logEvent } from "@/lib/log";

import type { OperationEvent } from "../operations";
import type { ApiRequest } from "./request";

export async function emitOperationEvent(state: ApiRequest, succeeded: boolean): Promise<void> {
  const { event } = state.spec;
  const server = state.server;
  if (!event || !succeeded || !state.user || !server) return;
  let described: OperationEvent | null = null;
  try {
    described = event.describe(state.facts, (code) => purchaseCodeTarget(code, server.config.dataKey));
  } catch (cause) {
    logEvent("error", "event_description_failed", { request_id: state.requestId, error: describeError(cause) });
  }
  if (!described) return;
  // A receiver must never hear of something the operation did not do: a type the table does not declare for it
  // is a bug, logged, not sent.
  if (!event.emits.includes(described.type)) {
    logEvent("error", "event_not_declared", {
      request_id: state.requestId,
      operation: state.spec.id,
      event: described.type,
    });
    return;
  }
  await emitEvent({
    type: described.type,
    data: {
      ...described.data,
      by: { user_id: state.user.id, email: state.user.email, via: state.token ? "api_token" : "session" },
    },
  });
}
