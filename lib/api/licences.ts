// The licence routes' answers that are the API's to give: a licence outcome (lib/licences/service.ts) as the
// reply or the error it is, and the dependencies the service takes from the server context.
import "server-only";

import type { ServerContext } from "@/lib/auth/access";
import { getConfig } from "@/lib/config";
import type { LicenceDeps, LicenceOutcome } from "@/lib/licences/service";
import type { ItemsClient } from "@/lib/upstream";

import { ApiError, fieldsRefused, rateLimited } from "./errors";
import { ok, type Reply } from "./route";

export async function licenceDeps(server: ServerContext, items: ItemsClient): Promise<LicenceDeps> {
  const { purchases } = server.config;
  const { upstream } = await getConfig();
  return {
    verdictTtlMs: upstream.policy.cacheTtlMs.items,
    db: server.db,
    hashKey: server.config.dataKey,
    items,
    format: purchases.codeFormat,
    limits: purchases.licences,
    itemsCallsPerMinute: purchases.itemsCallsPerMinute,
  };
}

export function licenceReply(outcome: LicenceOutcome): Reply {
  switch (outcome.kind) {
    case "answer":
      return ok(outcome.answer);
    case "invalid":
      throw fieldsRefused({ [outcome.field]: outcome.reason });
    case "not_found":
      throw new ApiError("not_found", outcome.message);
    case "limit_reached":
      throw new ApiError("activation_limit_reached", outcome.message);
    case "rate_limited":
      throw rateLimited(outcome.message, outcome.retryAfterSeconds);
    case "unavailable":
      throw new ApiError("server_busy", outcome.message, {
        headers: { "Retry-After": String(outcome.retryAfterSeconds) },
      });
  }
}
