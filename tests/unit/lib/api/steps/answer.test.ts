// The JSON answer: every registered key removed from its text, also when the same (cached) body object is answered
// again after a key was registered.
import { describe, expect, it } from "vitest";

import { toResponse } from "@/lib/api/steps/answer";
import { registerSecrets } from "@/lib/log";

describe("toResponse", () => {
  it("answers a body object seen before with its text, redacted of a key registered since", async () => {
    const later = "answer-test-key-registered-later";
    const body = { data: [{ id: 1, note: `echoed ${later}` }], meta: { total: 1 } };
    const first = await toResponse({ status: 200, json: body }).text();
    expect(JSON.parse(first)).toEqual(body);
    expect(await toResponse({ status: 200, json: body }).text()).toBe(first);

    registerSecrets([later]);
    const again = await toResponse({ status: 200, json: body }).text();
    expect(again).not.toContain(later);
    expect(JSON.parse(again)).toEqual({ data: [{ id: 1, note: "echoed [REDACTED]" }], meta: { total: 1 } });
  });
});
