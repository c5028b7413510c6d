// The card Help Scout shows in a conversation's sidebar: the verdicts of the codes in its subject, the checks made
// for it before, and a link that opens the checker with the conversation attached. Help Scout's legacy dynamic apps
// take HTML in the markup of its sidebar (its style guide: h4, `c-sb-list` lists of `c-sb-list-item` with a
// `__label` and a `__text`, the text colours `green`/`red`/`orange`/`muted`, links and nothing interactive besides),
// and strip inline styles and scripts. Everything not ours — item names, licences, the item service's reasons, the
// subject's codes — is escaped here, once, so that a hostile upstream or customer cannot put markup into an agent's
// sidebar. Times are in UTC: Help Scout does not say the agent's time zone. A purchase's life shows too: a revoked
// code's sentence (what was bought, and that the sale was probably reversed), a verdict that is not fresh (the item
// service did not answer: the last verdict's words), support ending soon with the item's renewal link (https only),
// and a code possibly shared. A valid code's active licence activations (domain or id, last seen) follow its
// verdict, at most ACTIVATIONS_SHOWN of them and "and N more": the route reads them (this room does not import the
// licences) and passes them in.
import type { HelpdeskLookup, HelpdeskVerdict } from "@/lib/contract/helpdesk";
import type { PurchaseHistoryEntry } from "@/lib/contract/purchases";

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** `text` safe anywhere in HTML: in an element and in a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

const UTC_TIME = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});

const UTC_DAY = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

function utc(iso: string): string {
  return `${UTC_TIME.format(new Date(iso))} UTC`;
}

function utcDay(iso: string): string {
  return UTC_DAY.format(new Date(iso));
}

function times(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** How a code is named on the card: its last 4 characters, or "a short code" when it keeps none. */
function codeName(last4: string): string {
  return last4 === "" ? "A short code" : `Code …${escapeHtml(last4)}`;
}

const OUTCOME = {
  valid: { colour: "green", word: "Valid" },
  invalid: { colour: "red", word: "Invalid" },
  revoked: { colour: "red", word: "Revoked" },
  failed: { colour: "orange", word: "Not answered" },
  not_checked: { colour: "orange", word: "Not checked" },
} as const;

function listItem(label: string, text: string): string {
  return `<li class="c-sb-list-item"><span class="c-sb-list-item__label">${label} <span class="c-sb-list-item__text">${text}</span></span></li>`;
}

/** The renewal link when it is an https URL; anything else (javascript:, http:, not a URL) is left out. */
export function safeRenewalUrl(url: string | null): string | null {
  if (url === null || !/^https:\/\//i.test(url)) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" ? parsed.href : null;
  } catch {
    return null;
  }
}

/** Support ending soon, the renewal link, "possibly shared": what the purchase's life adds to its verdict. */
function lifecycleParts(verdict: HelpdeskVerdict): string[] {
  const { support_ends_in_days: days, renewal_url: renewal, shared_suspected: shared } = verdict.lifecycle;
  const parts: string[] = [];
  if (days !== null)
    parts.push(`<span class="orange">Support ends ${days === 0 ? "today" : `in ${times(days, "day", "days")}`}</span>`);
  const href = safeRenewalUrl(renewal);
  if (href) parts.push(`<a href="${escapeHtml(href)}">Renew support</a>`);
  if (shared)
    parts.push(
      `<span class="orange">Possibly shared</span>: checked from ${times(shared.tickets, "ticket", "tickets")}, ${times(shared.tokens, "token", "tokens")}, ${times(shared.addresses, "address", "addresses")} in ${times(shared.window_days, "day", "days")}`,
    );
  return parts;
}

function verdictText(verdict: HelpdeskVerdict): string {
  const parts: string[] = [];
  if (verdict.purchase) {
    parts.push(`${escapeHtml(verdict.purchase.item.name)} · ${escapeHtml(verdict.purchase.license_type)}`);
    const until = verdict.purchase.supported_until;
    parts.push(
      verdict.support === "active" && until
        ? `Support active until ${utcDay(until)}`
        : verdict.support === "expired" && until
          ? `Support expired on ${utcDay(until)}`
          : "No support",
    );
  } else if (verdict.message) {
    parts.push(escapeHtml(verdict.message));
  }
  parts.push(...lifecycleParts(verdict));
  if (verdict.almost) parts.push(`Almost a code: ${escapeHtml(verdict.almost.slip)}`);
  if (verdict.history.previous_checks > 0)
    parts.push(`Checked ${times(verdict.history.previous_checks, "time", "times")} before`);
  return parts.join(" · ");
}

/** A failed check answered from the last verdict (the item service down): not fresh, its words in the text. */
const NOT_FRESH = { colour: "orange", word: "Not fresh" } as const;

/** An installed copy holding an active activation of a code, as the card names it. */
export interface CardActivation {
  /** Its domain (normalised) or its id. */
  instance: string;
  last_seen_at: string;
}

/** Activations named on the card per code; the rest are counted. */
export const ACTIVATIONS_SHOWN = 5;

function activationsText(activations: readonly CardActivation[]): string {
  const shown = activations
    .slice(0, ACTIVATIONS_SHOWN)
    .map((activation) => `${escapeHtml(activation.instance)} (last seen ${utcDay(activation.last_seen_at)})`);
  const more = activations.length - shown.length;
  return `Active on ${times(activations.length, "site", "sites")}: ${shown.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}

function verdictItem(verdict: HelpdeskVerdict, activations: readonly CardActivation[] | null | undefined): string {
  const outcome = verdict.outcome === "failed" && verdict.last_verdict ? NOT_FRESH : OUTCOME[verdict.outcome];
  const text = verdictText(verdict);
  return listItem(
    `${codeName(verdict.code_last4)} <strong class="${outcome.colour}">${outcome.word}</strong>`,
    activations && activations.length > 0 ? `${text} · ${activationsText(activations)}` : text,
  );
}

function earlierItem(entry: PurchaseHistoryEntry): string {
  const outcome = OUTCOME[entry.outcome];
  const what = [
    entry.item_name ? escapeHtml(entry.item_name) : null,
    entry.outcome !== "valid" && entry.reason ? escapeHtml(entry.reason) : null,
    utc(entry.checked_at),
    entry.checked_by.email ? `by ${escapeHtml(entry.checked_by.email)}` : null,
  ].filter((part) => part !== null);
  return listItem(
    `${codeName(entry.code_last4)} <strong class="${outcome.colour}">${outcome.word}</strong>`,
    what.join(" · "),
  );
}

export interface HelpScoutCard {
  /** The verdicts of the codes in the subject; null for a draft, which has no conversation yet. */
  lookup: HelpdeskLookup | null;
  /** The checks made for this conversation before this request, newest first. */
  earlier: PurchaseHistoryEntry[];
  /** The checker with the conversation attached; null for a draft. */
  checkerUrl: string | null;
  /** Each verdict's active licence activations, by its index in `lookup.codes` (null or absent: none shown). */
  activations?: ReadonlyArray<readonly CardActivation[] | null>;
}

/** The card's HTML: compact, in Help Scout's sidebar markup, every outside string escaped. */
export function helpScoutCardHtml({ lookup, earlier, checkerUrl, activations = [] }: HelpScoutCard): string {
  const html: string[] = ["<h4>Purchase codes</h4>"];
  if (lookup === null) {
    html.push('<p class="muted">Save the conversation first: a draft has nothing to check yet.</p>');
    return html.join("");
  }
  if (lookup.codes.length === 0) {
    html.push('<p class="muted">No purchase code in this conversation&#39;s subject.</p>');
  } else {
    html.push(
      `<ul class="c-sb-list c-sb-list--two-line">${lookup.codes.map((verdict, index) => verdictItem(verdict, activations[index])).join("")}</ul>`,
    );
    if (lookup.not_checked > 0)
      html.push(
        `<p class="muted">${times(lookup.not_checked, "more code", "more codes")} found, not checked: open Gatehouse.</p>`,
      );
  }
  html.push("<h4>Checked before for this conversation</h4>");
  html.push(
    earlier.length === 0
      ? '<p class="muted">Nothing yet.</p>'
      : `<ul class="c-sb-list c-sb-list--two-line">${earlier.map(earlierItem).join("")}</ul>`,
  );
  if (checkerUrl) html.push(`<p><a href="${escapeHtml(checkerUrl)}">Open in Gatehouse</a></p>`);
  return html.join("");
}
