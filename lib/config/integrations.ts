// Integration access: what an account's API tokens may spend, and where webhooks may go. Read by ./server.ts
// with the other rooms' settings.
import "server-only";

import { z } from "zod";

import { perMinute } from "./purchases";

export interface TokensConfig {
  /** Requests an account's API tokens may make per minute, all of them together (TOKEN_RATE_LIMIT_PER_MINUTE). */
  rateLimitPerMinute: number;
}

export interface WebhooksConfig {
  /** WEBHOOK_ALLOW_PRIVATE=1: webhooks may go to http:// URLs and private addresses (development and tests only). */
  allowPrivate: boolean;
  /** Demo mode only: the embedded sandbox's receiver, on loopback, which webhooks may go to whatever the rule. */
  demoReceiverUrl: string | null;
}

export const DEFAULT_TOKEN_RATE_LIMIT_PER_MINUTE = 600;

/** The variables of this room, in the order their problems are listed. */
export const integrationVariables = {
  TOKEN_RATE_LIMIT_PER_MINUTE: perMinute.default(DEFAULT_TOKEN_RATE_LIMIT_PER_MINUTE),
  WEBHOOK_ALLOW_PRIVATE: z
    .enum(["0", "1"], { error: "must be 1 (allow http and private addresses, for development) or 0" })
    .default("0"),
};

export function integrationsConfig(vars: z.infer<z.ZodObject<typeof integrationVariables>>): {
  tokens: TokensConfig;
  webhooks: WebhooksConfig;
} {
  return {
    tokens: { rateLimitPerMinute: vars.TOKEN_RATE_LIMIT_PER_MINUTE },
    webhooks: { allowPrivate: vars.WEBHOOK_ALLOW_PRIVATE === "1", demoReceiverUrl: null },
  };
}
