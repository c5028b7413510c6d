// Client of area B, the item API: one typed function per documented operation. The key goes where
// ITEMS_API_KEY_LOCATION says (default: query string on GET, form body on POST). Errors are known by the body
// `{"status":"error","msg":...}`, whatever the HTTP status; the documented messages map to outcomes here.
// Reads go through the area's policy (cache, single flight). A purchase validation is a question about one code
// at one moment: the checker's always asks; a helpdesk's lookup, which runs each time an agent opens the ticket,
// may take an answer as old as the area's cache lifetime (`shared: true`).
import "server-only";

import { createHash } from "node:crypto";

import type { z } from "zod";

import type { Account, Item } from "@/lib/contract/items";
import type { PurchaseValidation } from "@/lib/contract/purchases";
import type { ItemsAreaConfig } from "@/lib/config/env";

import { UpstreamError } from "./errors";
import { retryAfterOf, type UpstreamResponse } from "./http";
import { DIRECT, keyFingerprint, requestKey, type UpstreamPolicy } from "./policy";
import {
  AccountEnvelopeSchema,
  ItemEnvelopeSchema,
  ItemListEnvelopeSchema,
  ItemsErrorEnvelopeSchema,
  parseWith,
  PurchaseEnvelopeSchema,
} from "./shapes";

/** Answers of reads may come from the cache and are shared: treat them as read-only (they are frozen). */
export interface ItemsClient {
  /** `fresh: true` skips the cache (readiness checks). */
  getAccount(options?: { fresh?: boolean }): Promise<Account>;
  listItems(): Promise<Item[]>;
  getItem(id: number): Promise<Item>;
  /**
   * `shared: true`: through the cache and single flight (keyed by the code's SHA-256, never the code);
   * `beforeCall` runs only when the item API is about to be asked (not on an answer from the cache or from
   * another instance), and may throw to refuse the call (the licence API's budget).
   */
  validatePurchase(purchaseCode: string, options?: ValidateOptions): Promise<PurchaseValidation>;
}

export interface ValidateOptions {
  shared?: boolean;
  beforeCall?: () => Promise<void>;
}

/** The document's error messages, compared case-insensitively. */
export const ITEMS_MESSAGES = {
  invalidRequest: "invalid request",
  noItems: "no items found",
  itemNotFound: "item not found",
  invalidPurchaseCode: "invalid purchase code",
} as const;

/** Cache tags of area B. Nothing Gatehouse does changes area B, so nothing drops them before they expire. */
export const ITEMS_TAGS = {
  account: "items:account",
  itemList: "items:list",
  anyItem: "items:item",
  item: (id: number) => `items:item:${id}`,
  /** Validations a helpdesk's lookup shares (the checker's own are never cached). */
  purchase: "items:purchase",
} as const;

type Answer<T> = { kind: "success"; value: T; status: number } | { kind: "error"; msg: string };

export function createItemsClient(
  config: ItemsAreaConfig,
  options: { timeoutMs: number; policy?: UpstreamPolicy },
): ItemsClient {
  const policy = options.policy ?? DIRECT;
  const fingerprint = keyFingerprint(config.apiKey);

  /** A GET through the cache and single flight, keyed by the normalised request (the key left out, its fingerprint in). */
  function read<T>(
    path: string,
    params: Record<string, string>,
    tags: readonly string[],
    load: () => Promise<T>,
    fresh?: boolean,
  ): Promise<T> {
    const key = requestKey({ area: "items", keyFingerprint: fingerprint, method: "GET", path, query: params });
    return policy.read({ key, tags, fresh }, load);
  }

  async function call<T>(
    operation: string,
    method: "GET" | "POST",
    path: string,
    params: Record<string, string>,
    success: z.ZodType<T>,
  ): Promise<Answer<T>> {
    const url = new URL(config.baseUrl + path);
    const headers: Record<string, string> = { Accept: "application/json" };
    let form: Record<string, string> | undefined = method === "POST" ? { ...params } : undefined;
    if (method === "GET") for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    const location = config.keyLocation;
    if (location.kind === "header") headers[location.name] = config.apiKey;
    else if (location.kind === "query" || method === "GET") url.searchParams.set("api_key", config.apiKey);
    else form = { api_key: config.apiKey, ...form };

    const response = await policy.send({
      area: "items",
      operation,
      method,
      url,
      headers,
      form,
      timeoutMs: options.timeoutMs,
    });
    return interpret(operation, response, success);
  }

  return {
    async getAccount(readOptions) {
      const path = "/api/account/details";
      return read(
        path,
        {},
        [ITEMS_TAGS.account],
        async () => {
          const answer = await call("items.account", "GET", path, {}, AccountEnvelopeSchema);
          if (answer.kind === "error") throw unexpectedMessage("items.account", answer.msg);
          return answer.value.data;
        },
        readOptions?.fresh,
      );
    },
    async listItems() {
      const path = "/api/items/all";
      return read(path, {}, [ITEMS_TAGS.itemList], async () => {
        const answer = await call("items.all", "GET", path, {}, ItemListEnvelopeSchema);
        if (answer.kind === "error") {
          // "No Items Found" is how the upstream says the list is empty.
          if (sameMessage(answer.msg, ITEMS_MESSAGES.noItems)) return [];
          throw unexpectedMessage("items.all", answer.msg);
        }
        return answer.value.items;
      });
    },
    async getItem(id) {
      if (!Number.isSafeInteger(id) || id < 1) throw new RangeError("item id must be a positive integer");
      const path = "/api/items/item";
      const params = { item_id: String(id) };
      return read(path, params, [ITEMS_TAGS.anyItem, ITEMS_TAGS.item(id)], async () => {
        const answer = await call("items.item", "GET", path, params, ItemEnvelopeSchema);
        if (answer.kind === "error") {
          if (sameMessage(answer.msg, ITEMS_MESSAGES.itemNotFound)) {
            throw new UpstreamError({
              kind: "not_found",
              area: "items",
              operation: "items.item",
              detail: "has no such item",
              upstreamMessage: answer.msg,
            });
          }
          throw unexpectedMessage("items.item", answer.msg);
        }
        return answer.value.item;
      });
    },
    validatePurchase(purchaseCode, validateOptions) {
      if (!validateOptions?.shared) return validate(purchaseCode);
      const codeKey = createHash("sha256").update(purchaseCode.trim().toLowerCase()).digest("hex");
      const { beforeCall } = validateOptions;
      return read("/api/purchases/validation", { code: codeKey }, [ITEMS_TAGS.purchase], async () => {
        await beforeCall?.();
        return validate(purchaseCode);
      });
    },
  };

  async function validate(purchaseCode: string): Promise<PurchaseValidation> {
    const answer = await call(
      "purchases.validate",
      "POST",
      "/api/purchases/validation",
      { purchase_code: purchaseCode },
      PurchaseEnvelopeSchema,
    );
    if (answer.kind === "error") {
      if (sameMessage(answer.msg, ITEMS_MESSAGES.invalidPurchaseCode)) return { valid: false, message: answer.msg };
      throw unexpectedMessage("purchases.validate", answer.msg);
    }
    const { purchase } = answer.value.data;
    // "Valid" is an answer about one code. A purchase carrying another code (a caching proxy mixing answers,
    // a buggy or hostile upstream) says nothing about the code asked, and must never be shown as valid.
    if (!sameCode(purchase.purchase_code, purchaseCode)) {
      throw new UpstreamError({
        kind: "bad_response",
        area: "items",
        operation: "purchases.validate",
        status: answer.status,
        detail: "answered about another purchase code than the one asked (not shown as valid)",
      });
    }
    return { valid: true, purchase };
  }
}

/** Purchase codes are UUID-like: the same code in another letter case is the same code. */
function sameCode(answered: string, asked: string): boolean {
  return answered.trim().toLowerCase() === asked.trim().toLowerCase();
}

function sameMessage(msg: string, expected: string): boolean {
  return msg.trim().toLowerCase() === expected;
}

function unexpectedMessage(operation: string, msg: string): UpstreamError {
  return new UpstreamError({
    kind: "http_status",
    area: "items",
    operation,
    detail: "answered with an error Gatehouse does not expect here",
    upstreamMessage: msg,
  });
}

/**
 * Reads an area B answer. Order matters: an error envelope wins over the HTTP status (the document gives none),
 * except that 401/403 and "Invalid request" mean our key was refused, and 429 is a rate limit.
 */
function interpret<T>(operation: string, response: UpstreamResponse, success: z.ZodType<T>): Answer<T> {
  const { status } = response;
  const base = { area: "items" as const, operation, status };
  const json = response.body.kind === "json" ? response.body.value : undefined;
  const errorEnvelope = ItemsErrorEnvelopeSchema.safeParse(json);
  const msg = errorEnvelope.success ? errorEnvelope.data.msg : undefined;

  if (status === 401 || status === 403 || (msg !== undefined && sameMessage(msg, ITEMS_MESSAGES.invalidRequest))) {
    return fail({ ...base, kind: "auth", detail: "rejected Gatehouse's key", upstreamMessage: msg });
  }
  if (status === 429) {
    const retryAfter = retryAfterOf(response.headers);
    return fail({
      ...base,
      kind: "rate_limited",
      detail: "is rate limiting Gatehouse",
      retryAfter,
      upstreamMessage: msg,
    });
  }
  if (msg !== undefined) return { kind: "error", msg };
  if (status < 200 || status >= 300) {
    // Without the error envelope even a 404 is not "no such item": more likely a wrong ITEMS_API_BASE_URL.
    return fail({ ...base, kind: "http_status", detail: "answered with an error status and no error message" });
  }
  if (response.body.kind !== "json") {
    return fail({
      ...base,
      kind: "bad_response",
      detail: response.body.kind === "empty" ? "answered an empty body" : "answered malformed JSON",
    });
  }
  const parsed = parseWith(success, json, "success envelope");
  if (!parsed.ok) {
    return fail({
      ...base,
      kind: "bad_response",
      detail: `answered in a shape Gatehouse does not understand (${parsed.problem})`,
    });
  }
  return { kind: "success", value: parsed.value, status };
}

function fail(details: ConstructorParameters<typeof UpstreamError>[0]): never {
  throw new UpstreamError(details);
}
