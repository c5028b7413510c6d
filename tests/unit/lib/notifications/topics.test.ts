// Who may have which topic: a viewer no purchase topics, only admins the upstream keys.
import { describe, expect, it } from "vitest";

import { isReportTopic, mayHaveTopic, topicsFor } from "@/lib/notifications/topics";

describe("topicsFor", () => {
  it("a viewer gets reports, upstreams and his tokens' quotas, never purchases, bulk jobs, licences or keys", () => {
    expect(topicsFor({ role: "viewer" })).toEqual([
      "report.regressed",
      "report.recovered",
      "upstream.down",
      "upstream.up",
      "token.quota_reached",
    ]);
  });
  it("an admin gets every topic; support gets purchases but no reports or keys", () => {
    expect(topicsFor({ role: "admin" })).toHaveLength(11);
    expect(mayHaveTopic({ role: "support" }, "token.quota_reached")).toBe(true);
    expect(mayHaveTopic({ role: "support" }, "purchase.revoked")).toBe(true);
    expect(mayHaveTopic({ role: "support" }, "report.regressed")).toBe(false);
    expect(mayHaveTopic({ role: "editor" }, "upstream.key_rejected")).toBe(false);
  });
  it("only report topics narrow to a project and rule", () => {
    expect([isReportTopic("report.recovered"), isReportTopic("upstream.down")]).toEqual([true, false]);
  });
});
