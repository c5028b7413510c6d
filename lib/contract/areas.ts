// The two upstream areas and the words for them: in the API's error messages ("the reports API (area A)"), on
// pages and in results ("the reports service"), and the variables that configure each. No zod and no
// configuration: pages, components and the start-up messages all read them here.
export const AREAS = ["reports", "items"] as const;
export type Area = (typeof AREAS)[number];

export interface AreaWords {
  /** The API's name, as error messages to API callers and operators say it. */
  api: string;
  /** What a person using the pages knows it as. */
  service: string;
  /** The same, with the indefinite article. */
  aService: string;
  /** The variables that configure it, named in messages to operators. */
  variables: { baseUrl: string; key: string };
}

export const AREA_WORDS: Record<Area, AreaWords> = {
  reports: {
    api: "the reports API (area A)",
    service: "the reports service",
    aService: "a reports service",
    variables: { baseUrl: "REPORTS_API_BASE_URL", key: "REPORTS_API_KEY" },
  },
  items: {
    api: "the item API (area B)",
    service: "the item service",
    aService: "an item service",
    variables: { baseUrl: "ITEMS_API_BASE_URL", key: "ITEMS_API_KEY" },
  },
};

/** "the reports service" → "The reports service", to start a sentence. */
export function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
