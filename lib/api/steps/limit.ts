// The rate limits, after the permission: the requests per minute of a person's API tokens (all of them together),
// and the operation's own (purchase
// checks per user and per client address); each counted once across every instance when Redis is configured
// (lib/auth/rate-limit.ts).
import "server-only";

import type { ServerContext } from "@/lib/auth/access";
import { checkPurchaseRateLimit, checkTokenRateLimit } from "@/lib/auth/rate-limit";
import { clientAddress } from "@/lib/auth/request";
import { checkTokenLimits } from "@/lib/tokens/quota";

import { quotaExceeded, rateLimited } from "../errors";
import { serverContextOf, type ApiRequest } from "./request";

export async function limit(state: ApiRequest): Promise<void> {
  if (state.token && state.user) {
    state.limitsCounted = true;
    // Every request with a token counts against its owner's one limit, whatever else limits the operation: more
    // tokens never buy more requests.
    const { server } = await serverContextOf(state);
    const perMinute = server.config.tokens.rateLimitPerMinute;
    const decision = await checkTokenRateLimit(perMinute, state.user.id);
    if (!decision.allowed) {
      throw rateLimited(
        `Too many requests with your API tokens: the limit is ${perMinute} a minute for all of an account's tokens together. Try again in ${decision.retryAfterSeconds} s.`,
        decision.retryAfterSeconds,
      );
    }
    if (state.tokenLimits) await limitToken(state, server);
  }
  if (state.spec.rateLimit !== "purchase" || !state.user) return;
  const { server } = await serverContextOf(state);
  await limitPurchaseChecks(server, {
    userId: state.user.id,
    address: clientAddress(state.request.headers, server.config.edge),
    checks: 1,
  });
}

/** The token's own limits (lib/tokens/quota.ts): per minute, then the month's quota, each across every instance. */
async function limitToken(state: ApiRequest, server: ServerContext): Promise<void> {
  const decision = await checkTokenLimits(server.db, state.tokenLimits!);
  if (decision.allowed) {
    if (decision.quota)
      state.extraHeaders = {
        "Gatehouse-Quota-Limit": String(decision.quota.limit),
        "Gatehouse-Quota-Remaining": String(decision.quota.remaining),
        "Gatehouse-Quota-Reset": decision.quota.resetsAt,
      };
    return;
  }
  if (decision.limit === "minute") {
    throw rateLimited(
      `Too many requests with this API token: its own limit is ${decision.perMinute} a minute. Try again in ${decision.retryAfterSeconds} s, or ask its owner to raise the limit on the API tokens page.`,
      decision.retryAfterSeconds,
    );
  }
  state.extraHeaders = {
    "Gatehouse-Quota-Limit": String(decision.quota),
    "Gatehouse-Quota-Remaining": "0",
    "Gatehouse-Quota-Reset": decision.resetsAt,
  };
  throw quotaExceeded(
    `This API token has used its monthly quota of ${decision.quota} requests. It is refused until the month turns, at ${decision.resetsAt} (UTC), unless its owner raises the quota on the API tokens page.`,
    decision.retryAfterSeconds,
  );
}

/**
 * Counts `checks` purchase checks against the per-user and per-address limits, or refuses them all (429): the
 * pipeline's one check per request, and a helpdesk lookup's codes, counted once it knows how many it will ask.
 */
export async function limitPurchaseChecks(
  server: ServerContext,
  who: { userId: string; address: string | null; checks: number },
): Promise<void> {
  if (who.checks <= 0) return;
  const rules = server.config.purchases.rateLimits;
  const decision = await checkPurchaseRateLimit(rules, who);
  if (decision.allowed) return;
  const which =
    decision.limitedBy === "user"
      ? `${rules.perUser} purchase checks a minute per user`
      : `${rules.perIp} purchase checks a minute per address`;
  throw rateLimited(
    `Too many purchase checks: the limit is ${which}. Try again in ${decision.retryAfterSeconds} s.`,
    decision.retryAfterSeconds,
  );
}
