// The alerts list's query: status, project and the result dropped to, as the API and the page's URL read them.
import { describe, expect, it } from "vitest";

import { AlertListQuerySchema } from "@/lib/contract/alerts";

describe("AlertListQuerySchema", () => {
  it("alerts filter by status, project and result", () => {
    expect(AlertListQuerySchema.parse({ status: "all", to: "bad", per_page: "50" })).toMatchObject({
      status: "all",
      to: "bad",
      per_page: 50,
    });
    expect(AlertListQuerySchema.parse({ project: "my shop" })).toEqual({ project: "my shop" });
    expect(AlertListQuerySchema.safeParse({ status: "new" }).success).toBe(false);
    expect(AlertListQuerySchema.safeParse({ project: "" }).success).toBe(false);
  });
});
