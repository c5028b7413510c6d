// The operation's rate limit, for a signed-in user (after the permission): purchase checks per user and per
// client address, counted once across every instance when Redis is configured (lib/auth/rate-limit.ts).
import "server-only";

import { checkPurchaseRateLimit } from "@/lib/auth/rate-limit";
import { clientAddress } from "@/lib/auth/request";

import { rateLimited } from "../errors";
import { accountsOf, type ApiRequest } from "./request";

export async function limit(state: ApiRequest): Promise<void> {
  if (state.spec.rateLimit !== "purchase" || !state.user) return;
  const { accounts } = await accountsOf(state);
  const rules = accounts.config.purchaseRateLimits;
  const decision = await checkPurchaseRateLimit(rules, {
    userId: state.user.id,
    address: clientAddress(state.request.headers, accounts.config.edge),
  });
  if (decision.allowed) return;
  const which = decision.limitedBy === "user" ? `${rules.perUser} purchase checks a minute per user` : `${rules.perIp} purchase checks a minute per address`;
  throw rateLimited(`Too many purchase checks: the limit is ${which}. Try again in ${decision.retryAfterSeconds} s.`, decision.retryAfterSeconds);
}
