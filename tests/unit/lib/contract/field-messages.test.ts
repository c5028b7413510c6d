// A refused field told to a person: its label and a sentence, never a raw key in front (issue 31, item 11).
import { describe, expect, it } from "vitest";

import { fieldLabel, fieldSentence, fieldsSummary } from "@/lib/contract/field-messages";

describe("field messages", () => {
  it("labels our snake_case keys as words, and shows any other key as it was sent", () => {
    expect(fieldLabel("url")).toBe("URL");
    expect(fieldLabel("time_zone")).toBe("Time zone");
    expect(fieldLabel("events.0")).toBe("Events");
    expect(fieldLabel("toString")).toBe("toString");
    expect(fieldLabel("__proto__")).toBe("__proto__");
  });

  it("says the message as a sentence of its own", () => {
    expect(fieldSentence("url", "url must start with https://")).toBe("Must start with https://.");
    expect(fieldSentence("codes", "This batch has 3 codes.")).toBe("This batch has 3 codes.");
    expect(fieldSentence("key", "Unknown field")).toBe("Unknown field");
  });

  it("sums up every field as label and sentence, each ending in a stop", () => {
    expect(fieldsSummary({ key: "Unknown field" })).toBe("Key: Unknown field.");
    expect(fieldsSummary({ url: "url must start with https://", events: "events must name at least one event" })).toBe(
      "URL: Must start with https://. Events: Must name at least one event.",
    );
  });
});
