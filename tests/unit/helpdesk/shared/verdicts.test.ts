// The words of the sidebar apps' shared card (helpdesk/shared/verdicts.js) that the browser tests do not reach: the
// sentence for each failure an agent can meet, and a ticket too long for Gatehouse. The script is run as the
// browser runs it, in a context of its own with a window to hang itself on; the card itself is tested in Chromium
// (tests/e2e/helpdesk-apps.spec.ts).
import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";

import { describe, expect, it } from "vitest";

import { HELPDESK_MAX_TEXT_LENGTH } from "@/lib/contract/values";

interface Failure {
  status?: number;
  body?: unknown;
  retryAfter?: string;
  network?: boolean;
  freshdesk?: boolean;
}
interface Verdicts {
  failureWords(failure: Failure): string;
  ticketText(subject: string, messages: string[]): string;
  headerOf(headers: Record<string, string> | undefined, name: string): string | undefined;
  parseJson(text: string | undefined): unknown;
}

const window: { GatehouseVerdicts?: Verdicts } = {};
runInNewContext(readFileSync("helpdesk/shared/verdicts.js", "utf8"), { window });
const verdicts = window.GatehouseVerdicts!;
const gatehouseError = (status: number, code: string, message = "") => ({ status, body: { error: { code, message } } });

describe("the card's sentence for a failed lookup", () => {
  it("tells the agent what is wrong with the token, by Gatehouse's error code", () => {
    expect(verdicts.failureWords(gatehouseError(401, "token_revoked"))).toBe(
      "The token in the app's settings has been revoked. Ask a Gatehouse admin for a new one (Admin → Helpdesk) and put it in the app's settings.",
    );
    expect(verdicts.failureWords(gatehouseError(401, "token_expired"))).toMatch(
      /^The token in the app's settings has expired\./,
    );
    expect(verdicts.failureWords(gatehouseError(401, "token_invalid"))).toMatch(
      /^Gatehouse does not know the token in the app's settings\. Check that it was copied whole \(it starts with gth_\)/,
    );
    expect(verdicts.failureWords(gatehouseError(403, "insufficient_scope"))).toBe(
      "The token in the app's settings may not check purchases. Ask a Gatehouse admin for a token with the scope purchases:check (Admin → Helpdesk).",
    );
    expect(verdicts.failureWords(gatehouseError(403, "address_not_allowed", "Not from this address."))).toBe(
      "Gatehouse refused the request: Not from this address. Ask a Gatehouse admin.",
    );
  });

  it("says how long to wait when Gatehouse limits the checks", () => {
    expect(verdicts.failureWords({ ...gatehouseError(429, "rate_limited"), retryAfter: "30" })).toBe(
      "Too many checks just now. Check again in 30 seconds.",
    );
    expect(verdicts.failureWords({ ...gatehouseError(429, "rate_limited"), retryAfter: "1" })).toBe(
      "Too many checks just now. Check again in 1 second.",
    );
    expect(verdicts.failureWords(gatehouseError(429, "upstream_rate_limited"))).toBe(
      "Too many checks just now. Check again in a minute.",
    );
  });

  it("names who must act when Gatehouse cannot check at all", () => {
    expect(verdicts.failureWords(gatehouseError(503, "area_not_configured"))).toBe(
      "Gatehouse has no key for the item service yet, so it cannot check codes. Ask a Gatehouse admin to set it (Admin → Upstream).",
    );
    expect(verdicts.failureWords(gatehouseError(503, "upstream_unavailable"))).toBe(
      "Gatehouse or the item service is busy or down. Check again in a minute.",
    );
    expect(
      verdicts.failureWords(gatehouseError(504, "upstream_timeout", "The item service did not answer in time.")),
    ).toBe("The item service did not answer: The item service did not answer in time. Check again in a minute.");
    expect(verdicts.failureWords(gatehouseError(400, "invalid_input", "text: must be a string"))).toBe(
      "Gatehouse could not read this ticket: text: must be a string",
    );
  });

  it("sends the agent to the app's settings when Gatehouse or Freshdesk cannot be reached", () => {
    expect(verdicts.failureWords({ status: 502, network: true })).toBe(
      "Gatehouse could not be reached. Check that the Gatehouse address in the app's settings is right and that Gatehouse is up, then check again.",
    );
    expect(verdicts.failureWords({ freshdesk: true })).toBe(
      "Freshdesk did not give this ticket's replies. Check the Freshdesk address and API key in the app's settings.",
    );
  });
});

describe("the ticket's text", () => {
  it("is the subject and the messages, empty ones left out", () => {
    expect(verdicts.ticketText("Refund", ["first", " ", "second"])).toBe("Refund\n\nfirst\n\nsecond");
  });

  it("leaves out the oldest messages of a ticket longer than Gatehouse reads, never the subject", () => {
    const long = "x".repeat(HELPDESK_MAX_TEXT_LENGTH / 2);
    const text = verdicts.ticketText("Subject", [`old ${long}`, `middle ${long}`, "newest"]);
    expect(text.length).toBeLessThanOrEqual(HELPDESK_MAX_TEXT_LENGTH);
    expect(text.startsWith("Subject\n\nmiddle ")).toBe(true);
    expect(text.endsWith("\n\nnewest")).toBe(true);
  });

  it("reads a header in any case and tells a proxy's error page from JSON", () => {
    expect(verdicts.headerOf({ "retry-after": "5" }, "Retry-After")).toBe("5");
    expect(verdicts.headerOf(undefined, "Retry-After")).toBeUndefined();
    expect(verdicts.parseJson('{"data":1}')).toEqual({ data: 1 });
    expect(verdicts.parseJson("<html>Bad gateway</html>")).toBeNull();
  });
});
