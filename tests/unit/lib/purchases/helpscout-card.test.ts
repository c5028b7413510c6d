// Help Scout's card as HTML: every outside string escaped (text and attributes), codes by their last 4, the
// sentences for no codes and a draft, counts said in the singular and the plural; a purchase's life (revoked, a
// verdict not fresh, support ending with its renewal link, possibly shared).
import { describe, expect, it } from "vitest";

import type { HelpdeskLookup, HelpdeskVerdict } from "@/lib/contract/helpdesk";
import { NO_LIFECYCLE } from "@/lib/contract/purchase-lifecycle";
import type { PurchaseHistoryEntry } from "@/lib/contract/purchases";
import { escapeHtml, helpScoutCardHtml, safeRenewalUrl } from "@/lib/purchases/helpscout-card";

const HOSTILE = `<img src=x onerror="alert('1')">&`;

function verdict(more: Partial<HelpdeskVerdict> = {}): HelpdeskVerdict {
  return {
    code_last4: "1111",
    outcome: "valid",
    valid: true,
    purchase: {
      license_type: "Regular License",
      price: 59,
      currency: "USD",
      item: { id: 7, name: "ACME theme", url: null, media: {} },
      supported_until: "2031-12-01T00:00:00.000Z",
      downloaded: true,
      date: "2025-01-02T03:04:05.000Z",
    },
    support: "active",
    message: null,
    almost: null,
    history: { previous_checks: 0, first_checked_at: null, first_checked_by: null },
    checked_at: "2026-11-28T09:00:00.000Z",
    lifecycle: NO_LIFECYCLE,
    last_verdict: null,
    ...more,
  };
}

function lookup(codes: HelpdeskVerdict[], notChecked = 0): HelpdeskLookup {
  return {
    ticket: { system: "helpscout", id: "1", url: "https://secure.helpscout.net/conversation/1" },
    codes,
    not_checked: notChecked,
  };
}

const earlier: PurchaseHistoryEntry = {
  id: 1,
  checked_at: "2026-11-27T08:15:00.000Z",
  code_last4: "2222",
  outcome: "invalid",
  reason: HOSTILE,
  item_id: null,
  item_name: null,
  license_type: null,
  supported_until: null,
  support: null,
  checked_by: { id: null, email: `a"b@acme.test` },
  source: "helpdesk",
  bulk_job_id: null,
  ticket: { system: "helpscout", id: "1", url: "https://secure.helpscout.net/conversation/1" },
  shared_suspected: false,
};

describe("escapeHtml", () => {
  it("escapes the five characters that matter in text and in quoted attributes", () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;",
    );
  });
});

describe("helpScoutCardHtml", () => {
  it("shows each verdict by its last 4 with the item, licence and support, and the link to the checker", () => {
    const html = helpScoutCardHtml({
      lookup: lookup([verdict(), verdict({ code_last4: "", history: { ...verdict().history, previous_checks: 1 } })]),
      earlier: [],
      checkerUrl: "https://portal.example/purchases?ticket=helpscout%3A1&x=1",
    });
    expect(html).toContain('Code …1111 <strong class="green">Valid</strong>');
    expect(html).toContain("ACME theme · Regular License · Support active until 1 Dec 2031");
    expect(html).toContain("A short code");
    expect(html).toContain("Checked 1 time before");
    expect(html).toContain(
      '<a href="https://portal.example/purchases?ticket=helpscout%3A1&amp;x=1">Open in Gatehouse</a>',
    );
    expect(html).toContain('<p class="muted">Nothing yet.</p>');
  });

  it("escapes hostile item names, licences, reasons, slips and emails: no markup gets through", () => {
    const html = helpScoutCardHtml({
      lookup: lookup(
        [
          verdict({
            purchase: {
              ...verdict().purchase!,
              license_type: HOSTILE,
              item: { ...verdict().purchase!.item, name: HOSTILE },
            },
          }),
          verdict({
            outcome: "invalid",
            valid: false,
            purchase: null,
            support: null,
            message: HOSTILE,
            almost: { slip: HOSTILE, corrected: false },
          }),
        ],
        1,
      ),
      earlier: [earlier],
      checkerUrl: null,
    });
    expect(html).not.toContain("<img");
    expect(html).not.toContain(`"alert`);
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;");
    expect(html).toContain("by a&quot;b@acme.test");
    expect(html).toContain("27 Nov 2026, 08:15 UTC");
    expect(html).toContain("1 more code found, not checked");
    expect(html).not.toContain("Open in Gatehouse");
  });

  it("says so when the subject has no code, and for a draft", () => {
    expect(helpScoutCardHtml({ lookup: lookup([]), earlier: [], checkerUrl: "https://p.example/" })).toContain(
      "No purchase code in this conversation&#39;s subject.",
    );
    const draft = helpScoutCardHtml({ lookup: null, earlier: [], checkerUrl: null });
    expect(draft).toContain("a draft has nothing to check yet");
    expect(draft).not.toContain("Checked before");
  });

  it("says revoked with its sentence, and a failed check answered from the last verdict as not fresh", () => {
    const sentence =
      "Valid on 3 Mar 2026 (Regular License, item ACME theme), not valid now: the sale was probably refunded or reversed.";
    const stale =
      "Valid as of 3 days ago, checked by vera@example.com. The item API did not answer now: this verdict is not fresh, and Gatehouse checks the code again when it answers.";
    const html = helpScoutCardHtml({
      lookup: lookup([
        verdict({ outcome: "revoked", valid: false, purchase: null, support: null, message: sentence }),
        verdict({
          code_last4: "3333",
          outcome: "failed",
          valid: false,
          purchase: null,
          support: null,
          message: stale,
          last_verdict: {
            outcome: "valid",
            checked_at: "2026-11-25T09:00:00.000Z",
            checked_by: "vera@example.com",
            reason: null,
            item: { id: 7, name: "ACME theme" },
            license_type: "Regular License",
            supported_until: null,
            support: "none",
          },
        }),
        verdict({
          code_last4: "4444",
          outcome: "failed",
          valid: false,
          purchase: null,
          support: null,
          message: "Down.",
        }),
      ]),
      earlier: [],
      checkerUrl: null,
    });
    expect(html).toContain('Code …1111 <strong class="red">Revoked</strong>');
    expect(html).toContain("not valid now: the sale was probably refunded or reversed.");
    expect(html).toContain('Code …3333 <strong class="orange">Not fresh</strong>');
    expect(html).toContain("Valid as of 3 days ago, checked by vera@example.com.");
    // A code never checked before: the failure as before.
    expect(html).toContain('Code …4444 <strong class="orange">Not answered</strong>');
  });

  it("says support ending soon with the renewal link (https only, escaped) and a code possibly shared", () => {
    const card = (renewal: string | null, days = 9) =>
      helpScoutCardHtml({
        lookup: lookup([
          verdict({
            lifecycle: {
              ...NO_LIFECYCLE,
              support_ends_in_days: days,
              renewal_url: renewal,
              shared_suspected: { window_days: 30, tickets: 4, tokens: 1, addresses: 1 },
            },
          }),
        ]),
        earlier: [],
        checkerUrl: null,
      });
    const html = card(`https://acme.example/renew?item=7&from="x"`);
    expect(html).toContain('<span class="orange">Support ends in 9 days</span>');
    expect(html).toContain('<a href="https://acme.example/renew?item=7&amp;from=%22x%22">Renew support</a>');
    expect(html).toContain("Possibly shared</span>: checked from 4 tickets, 1 token, 1 address in 30 days");
    expect(card(null, 1)).toContain("Support ends in 1 day");
    expect(card(null, 0)).toContain("Support ends today");
    for (const bad of ["javascript:alert(1)", "http://acme.example/renew", "/renew", "https://"]) {
      expect(card(bad)).not.toContain("Renew support");
      expect(safeRenewalUrl(bad)).toBeNull();
    }
  });

  it("names a valid code's active licence activations, at most 5 with how many more, escaped", () => {
    const activations = Array.from({ length: 7 }, (_, index) => ({
      instance: index === 0 ? HOSTILE : `site${index}.example.com`,
      last_seen_at: "2026-11-20T10:00:00.000Z",
    }));
    const html = helpScoutCardHtml({
      lookup: lookup([verdict(), verdict({ code_last4: "2222" })]),
      earlier: [],
      checkerUrl: null,
      activations: [activations, null],
    });
    expect(html).toContain("Active on 7 sites: &lt;img");
    expect(html).toContain("site4.example.com (last seen 20 Nov 2026)");
    expect(html).not.toContain("site5.example.com");
    expect(html).toContain(" and 2 more");
    expect(html).not.toContain("<img");
    const second = html.slice(html.indexOf("Code …2222"));
    expect(second).not.toContain("Active on");
    // One activation: singular; none: nothing said.
    const one = helpScoutCardHtml({
      lookup: lookup([verdict()]),
      earlier: [],
      checkerUrl: null,
      activations: [[{ instance: "shop.example.com", last_seen_at: "2026-11-20T10:00:00.000Z" }]],
    });
    expect(one).toContain("Active on 1 site: shop.example.com (last seen 20 Nov 2026)</span>");
    expect(
      helpScoutCardHtml({ lookup: lookup([verdict()]), earlier: [], checkerUrl: null, activations: [[]] }),
    ).not.toContain("Active on");
  });
});
