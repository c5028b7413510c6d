// Area B: the seller account that owns the item API key (its balance only for finances:read) and its items.
// Purchase-code checks are in purchases.ts; signing in to the portal is in accounts.ts.
import { dataEnvelope, EmptyQuerySchema } from "@/lib/contract/common";
import { AccountSchema, ItemIdParamsSchema, ItemSchema } from "@/lib/contract/items";

import type { OperationSpec } from "./types";

export const itemOperations = {
  showAccount: {
    id: "showAccount",
    method: "GET",
    path: "/api/account",
    summary: "The seller account that owns the item API key",
    tag: "Items",
    permission: "items:read",
    // The seller's money: not support's business, whose work is the buyer's purchase.
    guardedFields: { balance: "finances:read", currency: "finances:read" },
    area: "items",
    query: EmptyQuerySchema,
    success: { status: 200, description: "The account", schema: dataEnvelope(AccountSchema) },
  },
  listItems: {
    id: "listItems",
    method: "GET",
    path: "/api/items",
    summary: "All items of the account (an empty list when it has none)",
    tag: "Items",
    permission: "items:read",
    area: "items",
    query: EmptyQuerySchema,
    success: { status: 200, description: "The items", schema: dataEnvelope(ItemSchema.array()) },
  },
  showItem: {
    id: "showItem",
    method: "GET",
    path: "/api/items/{id}",
    summary: "Show one item of the account",
    tag: "Items",
    permission: "items:read",
    area: "items",
    params: ItemIdParamsSchema,
    query: EmptyQuerySchema,
    success: { status: 200, description: "The item", schema: dataEnvelope(ItemSchema) },
    notFound: "There is no item with id {id} in this account.",
  },
} as const satisfies Record<string, OperationSpec>;
