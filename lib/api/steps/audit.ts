// The operation's audit row, written by the pipeline after the answer is known (success, failure or denied), and
// the rows a handler writes itself (sign-in, sign-out). A failed write never changes the answer.
import "server-only";

import type { ServerContext } from "@/lib/auth/access";
import { purchaseCodeTarget, recordAudit, type AuditEntry, type AuditTarget } from "@/lib/auth/audit";
import { describeError, logEvent } from "@/lib/log";

import type { ApiError } from "../errors";
import type { AuditTargetSpec } from "../operations";
import type { ApiRequest } from "./request";

/** The operation's audit row: what was done, to what, and whether it worked, was refused, or failed. */
export async function auditOperation(state: ApiRequest, status: number, error: ApiError | null): Promise<void> {
  const { audit } = state.spec;
  // A known user means the session step has loaded the server context.
  const server = state.server;
  if (!audit || !state.user || !server) return;
  const outcome =
    audit.outcome?.(state.facts, error?.code ?? null) ??
    (error === null ? "success" : error.code === "forbidden" || error.code === "rate_limited" ? "denied" : "failure");
  const action = typeof audit.action === "function" ? audit.action(state.facts) : audit.action;
  const entry: AuditEntry = {
    userId: state.user.id,
    userEmail: state.user.email,
    action,
    target: null,
    outcome,
    requestId: state.requestId,
  };
  try {
    const target = audit.target?.(state.facts) ?? null;
    entry.target = target === null ? null : auditTarget(target, server);
    entry.detail = error === null ? audit.detail?.(state.facts) : { error_code: error.code, status };
    // Done with an API token: which one (its id; the detail never holds a secret).
    if (state.token) entry.detail = { ...entry.detail, access: "api_token", access_id: state.token.id };
  } catch (cause) {
    // A bug in an operation's audit description must not cost the row: write what is known.
    logEvent("error", "audit_description_failed", { request_id: state.requestId, error: describeError(cause) });
  }
  await writeAudit(server, entry);
}

function auditTarget(target: AuditTargetSpec, server: ServerContext): AuditTarget {
  return target.type === "purchase_code" ? purchaseCodeTarget(target.code, server.config.dataKey) : target;
}

/**
 * Writes one audit row. A failed write does not change the answer — the change upstream has happened and cannot
 * be taken back, and failing the request would invite a retry that repeats it — but it is logged at error level
 * with everything the row would have held, so that it can be restored from the log.
 */
export async function writeAudit(server: ServerContext, entry: AuditEntry): Promise<void> {
  try {
    await recordAudit(server.db, entry);
  } catch (error) {
    logEvent("error", "audit_write_failed", {
      request_id: entry.requestId,
      audit: { ...entry, target: entry.target ?? null },
      error: describeError(error),
    });
  }
}
