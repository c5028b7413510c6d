// Purchase checks: how many validations a user and a client address may make a minute, how many codes a user may
// send to bulk checks an hour, how strictly codes are read, and what the lifecycle's sweep (lib/purchases/sweep.ts)
// may spend of the item API's budget. Read by ./server.ts with the other rooms' settings.
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
  /** The item API's rate budget, in calls a minute (ITEMS_API_CALLS_PER_MINUTE): the document states none. */
  itemsCallsPerMinute: number;
  /** The share of that budget the sweep and the re-checks after an outage may spend (PURCHASE_SWEEP_MAX_SHARE, 0–1). */
  sweepMaxShare: number;
  /** The public licence API's limits and its share of the item API's budget (LICENCE_*). */
  licences: LicenceLimits;
}

/** The licence API's requests a minute per purchase code, per client address and per item, and its budget share. */
export interface LicenceLimits {
  perCode: number;
  perIp: number;
  perItem: number;
  /** The share of ITEMS_API_CALLS_PER_MINUTE the licence API may spend asking the item API (LICENCE_API_MAX_SHARE). */
  maxShare: number;
}

export const DEFAULT_PURCHASE_RATE_LIMITS: Readonly<PurchaseRateLimits> = Object.freeze({ perUser: 30, perIp: 120 });
export const DEFAULT_PURCHASE_BULK_LIMIT_PER_HOUR = 1000;
export const DEFAULT_ITEMS_CALLS_PER_MINUTE = 60;
export const DEFAULT_PURCHASE_SWEEP_MAX_SHARE = 0.2;
export const DEFAULT_LICENCE_LIMITS: Readonly<LicenceLimits> = Object.freeze({
  perCode: 30,
  perIp: 600,
  perItem: 6000,
  maxShare: 0.5,
});

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
  ITEMS_API_CALLS_PER_MINUTE: z.coerce
    .number({ error: "must be a number of calls per minute" })
    .int("must be a whole number of calls per minute")
    .min(1, "must be at least 1")
    .max(100_000, "must be at most 100000")
    .default(DEFAULT_ITEMS_CALLS_PER_MINUTE),
  PURCHASE_SWEEP_MAX_SHARE: z.coerce
    .number({ error: "must be a share between 0 and 1, e.g. 0.2" })
    .gt(0, "must be more than 0")
    .max(1, "must be at most 1 (the whole budget)")
    .default(DEFAULT_PURCHASE_SWEEP_MAX_SHARE),
  LICENCE_RATE_LIMIT_PER_CODE: perMinute.default(DEFAULT_LICENCE_LIMITS.perCode),
  LICENCE_RATE_LIMIT_PER_IP: perMinute.default(DEFAULT_LICENCE_LIMITS.perIp),
  LICENCE_RATE_LIMIT_PER_ITEM: perMinute.default(DEFAULT_LICENCE_LIMITS.perItem),
  LICENCE_API_MAX_SHARE: z.coerce
    .number({ error: "must be a share between 0 and 1, e.g. 0.5" })
    .gt(0, "must be more than 0")
    .max(1, "must be at most 1 (the whole budget)")
    .default(DEFAULT_LICENCE_LIMITS.maxShare),
};

export function purchasesConfig(vars: z.infer<z.ZodObject<typeof purchaseVariables>>): PurchasesConfig {
  return {
    rateLimits: { perUser: vars.PURCHASE_RATE_LIMIT_PER_USER, perIp: vars.PURCHASE_RATE_LIMIT_PER_IP },
    bulkLimitPerHour: vars.PURCHASE_BULK_LIMIT_PER_HOUR,
    codeFormat: vars.PURCHASE_CODE_FORMAT,
    itemsCallsPerMinute: vars.ITEMS_API_CALLS_PER_MINUTE,
    sweepMaxShare: vars.PURCHASE_SWEEP_MAX_SHARE,
    licences: {
      perCode: vars.LICENCE_RATE_LIMIT_PER_CODE,
      perIp: vars.LICENCE_RATE_LIMIT_PER_IP,
      perItem: vars.LICENCE_RATE_LIMIT_PER_ITEM,
      maxShare: vars.LICENCE_API_MAX_SHARE,
    },
  };
}
