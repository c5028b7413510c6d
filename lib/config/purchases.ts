// Purchase checks: how many validations a user and a client address may make a minute, how many codes a user may
// send to bulk checks an hour, and how strictly codes are read. Read by ./server.ts with the other rooms' settings.
import "server-only";

import { z } from "zod";

import { CODE_FORMATS, DEFAULT_PURCHASE_CODE_FORMAT, type PurchaseCodeFormat } from "@/lib/contract/values";

/** Purchase validations allowed per minute, per user and per client address. */
export interface PurchaseRateLimits {
  perUser: number;
  perIp: number;
}

export interface PurchasesConfig {
  /** Purchase validations allowed per minute (PURCHASE_RATE_LIMIT_PER_USER, PURCHASE_RATE_LIMIT_PER_IP). */
  rateLimits: PurchaseRateLimits;
  /** Codes a user may send to bulk checks per hour (PURCHASE_BULK_LIMIT_PER_HOUR), apart from the per-minute limits. */
  bulkLimitPerHour: number;
  /** How strictly purchase codes are read (PURCHASE_CODE_FORMAT): auto, uuid or exact. */
  codeFormat: PurchaseCodeFormat;
}

export const DEFAULT_PURCHASE_RATE_LIMITS: Readonly<PurchaseRateLimits> = Object.freeze({ perUser: 30, perIp: 120 });
export const DEFAULT_PURCHASE_BULK_LIMIT_PER_HOUR = 1000;

/** Requests a minute: the purchase checks' limits and the API tokens' (./integrations.ts). */
export const perMinute = z.coerce
  .number({ error: "must be a number of requests per minute" })
  .int("must be a whole number of requests per minute")
  .min(1, "must be at least 1")
  .max(100_000, "must be at most 100000");

/** The variables of this room, in the order their problems are listed. */
export const purchaseVariables = {
  PURCHASE_RATE_LIMIT_PER_USER: perMinute.default(DEFAULT_PURCHASE_RATE_LIMITS.perUser),
  PURCHASE_RATE_LIMIT_PER_IP: perMinute.default(DEFAULT_PURCHASE_RATE_LIMITS.perIp),
  PURCHASE_BULK_LIMIT_PER_HOUR: z.coerce
    .number({ error: "must be a number of codes per hour" })
    .int("must be a whole number of codes per hour")
    .min(1, "must be at least 1")
    .max(1_000_000, "must be at most 1000000")
    .default(DEFAULT_PURCHASE_BULK_LIMIT_PER_HOUR),
  PURCHASE_CODE_FORMAT: z
    .enum(CODE_FORMATS, { error: `must be one of: ${CODE_FORMATS.join(", ")}` })
    .default(DEFAULT_PURCHASE_CODE_FORMAT),
};

export function purchasesConfig(vars: z.infer<z.ZodObject<typeof purchaseVariables>>): PurchasesConfig {
  return {
    rateLimits: { perUser: vars.PURCHASE_RATE_LIMIT_PER_USER, perIp: vars.PURCHASE_RATE_LIMIT_PER_IP },
    bulkLimitPerHour: vars.PURCHASE_BULK_LIMIT_PER_HOUR,
    codeFormat: vars.PURCHASE_CODE_FORMAT,
  };
}
