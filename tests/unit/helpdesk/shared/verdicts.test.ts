// The words of the sidebar apps' shared card (helpdesk/shared/verdicts.js) that the browser tests do not reach: the
// sentence for each failure an agent can meet, and a ticket too long for Gatehouse. The script is run as the
// browser runs it, in a context of its own with a window to hang itself on; the card itself is tested in Chromium
// (tests/e2e/helpdesk-apps.spec.ts). A purchase's life in words: revoked, not fresh, support ending with the
// renewal link (https only), possibly shared.
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
  verdictWords(verdict: Record<string, unknown>): { word: string; text: string; stale?: boolean };
  lifecycleLines(verdict: Record<string, unknown>): Array<{ kind: string; text: string; href?: string }>;
  renewalHref(url: unknown): string | null;
}

const window: { GatehouseVerdicts?: Verdicts } = {};
runInNewContext(readFileSync("helpdesk/shared/verdicts.js", "utf8"), { window, URL });
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

const NO_LIFECYCLE = {
  revoked: false,
  previously_valid: null,
  support_ends_in_days: null,
  renewal_url: null,
  shared_suspected: null,
};

describe("a purchase's life on the card", () => {
  it("says revoked with Gatehouse's sentence, and a last verdict as not fresh; a failure with none as before", () => {
    const sentence =
      "Valid on 3 Mar 2026 (Regular License, item ACME), not valid now: the sale was probably refunded or reversed.";
    expect(verdicts.verdictWords({ outcome: "revoked", message: sentence, lifecycle: NO_LIFECYCLE })).toEqual({
      word: "Revoked",
      text: `: ${sentence}`,
    });
    const stale = "Valid as of 3 days ago, checked by vera@example.com. The item API did not answer now.";
    expect(verdicts.verdictWords({ outcome: "failed", message: stale, last_verdict: { outcome: "valid" } })).toEqual({
      word: "Not fresh",
      text: `: ${stale}`,
      stale: true,
    });
    expect(verdicts.verdictWords({ outcome: "failed", message: "Down.", last_verdict: null }).word).toBe(
      "Could not check",
    );
  });

  it("says support ending, links the renewal (https only) and flags a code possibly shared", () => {
    const lines = verdicts.lifecycleLines({
      outcome: "valid",
      lifecycle: {
        ...NO_LIFECYCLE,
        support_ends_in_days: 9,
        renewal_url: "https://acme.example/renew?item=7",
        shared_suspected: { window_days: 30, tickets: 3, tokens: 1, addresses: 2 },
      },
    });
    expect(lines).toEqual([
      { kind: "ending", text: "Support ends in 9 days." },
      { kind: "renewal", text: "Renew support", href: "https://acme.example/renew?item=7" },
      {
        kind: "shared",
        text: "Possibly shared: checked from 3 helpdesk tickets, 1 API token, 2 addresses in the last 30 days.",
      },
    ]);
    const ending = (days: number) =>
      verdicts.lifecycleLines({ lifecycle: { ...NO_LIFECYCLE, support_ends_in_days: days } })[0]!.text;
    expect(ending(1)).toBe("Support ends in 1 day.");
    expect(ending(0)).toBe("Support ends today.");
    for (const bad of ["javascript:alert(1)", "http://acme.example/renew", "//acme.example", "https://", 7, null])
      expect(verdicts.renewalHref(bad)).toBeNull();
    // An older Gatehouse without a lifecycle: nothing added.
    expect(verdicts.lifecycleLines({ outcome: "valid" })).toEqual([]);
  });
});
