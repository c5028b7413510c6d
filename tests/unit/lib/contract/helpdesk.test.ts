// The helpdesk lookup's body: the ticket's fields read and refused in words a helpdesk app's author can act on,
// and a verdict's purchase never carrying the code.
import { describe, expect, it } from "vitest";

import { HelpdeskLookupBodySchema, HelpdeskPurchaseSchema } from "@/lib/contract/helpdesk";

const messages = (body: unknown) =>
  Object.fromEntries(
    (HelpdeskLookupBodySchema.safeParse(body).error?.issues ?? []).map((issue) => [
      issue.path.join("."),
      issue.message,
    ]),
  );

describe("HelpdeskLookupBodySchema", () => {
  it("takes a ticket with its system, id and address, the address optional", () => {
    const ticket = { system: "zendesk", id: " 4211 ", url: "https://acme.zendesk.com/agent/tickets/4211" };
    expect(HelpdeskLookupBodySchema.parse({ text: "hi", ticket })).toEqual({
      text: "hi",
      ticket: { ...ticket, id: "4211" },
    });
    expect(
      HelpdeskLookupBodySchema.parse({ text: "", ticket: { system: "other", id: "a-1" } }).ticket.url,
    ).toBeUndefined();
  });

  it("names each refused field", () => {
    expect(messages({})).toEqual({
      text: "is required: the ticket's subject and messages, as text",
      ticket: "is required: the ticket's system and id",
    });
    expect(messages({ text: "x", ticket: { system: "jira", id: "", url: "ftp://x" } })).toEqual({
      "ticket.system": "must be one of: zendesk, freshdesk, helpscout, other",
      "ticket.id": "must not be empty: the ticket's id in its helpdesk",
      "ticket.url": "must be the ticket's https:// (or http://) address",
    });
    expect(messages({ text: "x", ticket: { system: "zendesk", id: "1", extra: true } })).toHaveProperty("ticket");
  });
});

describe("HelpdeskPurchaseSchema", () => {
  it("has no place for the purchase code", () => {
    expect(Object.keys(HelpdeskPurchaseSchema.shape)).not.toContain("purchase_code");
  });
});
