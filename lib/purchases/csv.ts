// The purchase checker's downloads (history, bulk results) share their item columns; the CSV itself is lib/csv.ts.

/** The purchase a code stands for: the same columns, in the same order, in the history's and a bulk job's files. */
export const PURCHASED_ITEM_COLUMNS = ["item_id", "item_name", "license_type", "supported_until", "support"] as const;
