// The two upstream areas and their names for people. No `server-only`: it holds no configuration, and the
// portal's error messages and OpenAPI document (usable from scripts) need the names.
export type Area = "reports" | "items";

export const AREA_NAMES: Record<Area, string> = {
  reports: "the reports API (area A)",
  items: "the item API (area B)",
};

/** The variables that configure each area, named in messages to operators. */
export const AREA_VARIABLES: Record<Area, { baseUrl: string; key: string }> = {
  reports: { baseUrl: "REPORTS_API_BASE_URL", key: "REPORTS_API_KEY" },
  items: { baseUrl: "ITEMS_API_BASE_URL", key: "ITEMS_API_KEY" },
};
