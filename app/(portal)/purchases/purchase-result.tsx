"use client";
// The answer to a purchase check, for the seller: valid or not, what the history knew of the code, and for a
// valid code the licence, price, the item (preview picture and link), purchase date, download and support. Its
// life too: a code valid before and refused now (revoked), support ending soon with the renewal link, a code
// possibly shared, and while the item service is down, the last verdict marked as not fresh.
// Upstream text is escaped by React; its URLs become links or pictures only when they are http(s).
import Link from "next/link";

import { SupportExpiredBadge } from "@/components/portal/purchase-badges";
import { MediaImage } from "@/components/media/media-image";
import { Badge } from "@/components/ui/badge";
import { DescriptionList } from "@/components/ui/description-list";
import { LocalTime } from "@/components/ui/local-time";
import { Money } from "@/components/ui/money";
import { SafeLink } from "@/components/ui/safe-link";
import { SupportStatus } from "@/components/ui/support-status";
import { useNow } from "@/components/use-browser";
import { supportOf } from "@/lib/contract/purchase-code";
import type { PurchaseCheck } from "@/lib/contract/purchases";

import styles from "./purchases.module.css";

export interface PurchaseResultProps {
  /** POST /api/purchases/validate's answer. */
  check: PurchaseCheck;
  /** A link to the item's page in the portal, when the user may see items. */
  linkItems: boolean;
}

/** "Checked 2 times before, first on … by …": a code checked often may be shared or resold. */
function PreviousChecks({ history }: { history: PurchaseCheck["history"] }) {
  if (history.previous_checks === 0) return <p className={styles.history}>First check of this code.</p>;
  const times = history.previous_checks === 1 ? "1 time" : `${history.previous_checks} times`;
  return (
    <p className={styles.history}>
      Checked {times} before
      {history.first_checked_at ? (
        <>
          , first on <LocalTime iso={history.first_checked_at} display="datetime" />
        </>
      ) : null}
      {history.first_checked_by ? <> by {history.first_checked_by}</> : null}.
    </p>
  );
}

/** What the lifecycle adds below a verdict: support ending soon (with the renewal link), a code possibly shared. */
function LifecycleNotes({ lifecycle }: { lifecycle: PurchaseCheck["lifecycle"] }) {
  const { support_ends_in_days: days, renewal_url: renewal, shared_suspected: shared } = lifecycle;
  return (
    <>
      {days !== null ? (
        <p className={styles.lifecycleNote}>
          <Badge tone="warning" mark="◷">
            Support ends {days === 0 ? "today" : days === 1 ? "in 1 day" : `in ${days} days`}
          </Badge>
        </p>
      ) : null}
      {renewal ? (
        <p className={styles.lifecycleNote}>
          <SafeLink href={renewal} missing={null}>
            Renew support
          </SafeLink>
        </p>
      ) : null}
      {shared ? (
        <p className={styles.lifecycleNote} role="note">
          <Badge tone="warning" mark="⚑">
            Possibly shared
          </Badge>{" "}
          Checked from {places(shared)} in the last {shared.window_days} days.
        </p>
      ) : null}
    </>
  );
}

function places(shared: NonNullable<PurchaseCheck["lifecycle"]["shared_suspected"]>): string {
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return [
    count(shared.tickets, "helpdesk ticket", "helpdesk tickets"),
    count(shared.tokens, "API token", "API tokens"),
    count(shared.addresses, "address", "addresses"),
  ].join(", ");
}

/** While the item service is down: the last verdict, plainly marked as not fresh. */
function StaleResult({ check }: { check: Extract<PurchaseCheck, { stale: true }> }) {
  const last = check.last_verdict;
  return (
    <div className={`${styles.result} ${styles.stale}`}>
      <h2 className={styles.resultTitle}>
        <Badge tone="warning" mark="◴">
          Not fresh
        </Badge>{" "}
        {last.outcome === "valid"
          ? "Last known: valid"
          : last.outcome === "revoked"
            ? "Last known: revoked"
            : "Last known: not valid"}
      </h2>
      <p>{check.message}</p>
      <p className={styles.history}>
        Last verdict <LocalTime iso={last.checked_at} display="datetime" />
        {last.item ? (
          <>
            {" "}
            · {last.license_type ? `${last.license_type}, ` : ""}
            {last.item.name}
          </>
        ) : null}
        . Why no fresh answer: {check.failure}
      </p>
      <PreviousChecks history={check.history} />
    </div>
  );
}

/** Valid before, refused now: what was bought, and that the sale was probably reversed. */
function RevokedResult({ check }: { check: Extract<PurchaseCheck, { stale: false; valid: false }> }) {
  const previous = check.lifecycle.previously_valid;
  return (
    <div className={`${styles.result} ${styles.invalid}`}>
      <h2 className={styles.resultTitle}>
        <Badge tone="error" mark="⊘">
          Revoked
        </Badge>{" "}
        This purchase is no longer valid
      </h2>
      <p>{check.message}</p>
      {previous ? (
        <DescriptionList
          items={[
            { term: "Item", description: previous.item.name },
            { term: "Licence", description: previous.license_type },
            { term: "Last valid", description: <LocalTime iso={previous.last_valid_at} display="datetime" /> },
            ...(previous.sold_at
              ? [{ term: "Purchased", description: <LocalTime iso={previous.sold_at} display="both" /> }]
              : []),
          ]}
        />
      ) : null}
      <PreviousChecks history={check.history} />
      <LifecycleNotes lifecycle={check.lifecycle} />
    </div>
  );
}

export function PurchaseResult({ check, linkItems }: PurchaseResultProps) {
  const now = useNow();
  if (check.stale) return <StaleResult check={check} />;
  if (!check.valid && check.lifecycle.revoked) return <RevokedResult check={check} />;
  if (!check.valid) {
    return (
      <div className={`${styles.result} ${styles.invalid}`}>
        <h2 className={styles.resultTitle}>
          <Badge tone="error" mark="✕">
            Not valid
          </Badge>{" "}
          This purchase code is not valid
        </h2>
        <p>
          The item service does not know the code <code className={styles.code}>{check.checked_code}</code> (
          {check.message}). Check it with the buyer: it may be mistyped, or belong to another seller.
        </p>
        <PreviousChecks history={check.history} />
        <LifecycleNotes lifecycle={check.lifecycle} />
      </div>
    );
  }
  const { purchase } = check;
  // A real purchase whose support ended: its own colour and words, never those of "invalid".
  const expired = now !== null && supportOf(true, purchase.supported_until, now) === "expired";
  return (
    <div className={`${styles.result} ${expired ? styles.supportExpired : styles.valid}`}>
      <h2 className={styles.resultTitle}>
        {expired ? (
          <>
            <SupportExpiredBadge /> This purchase is real; its support has expired
          </>
        ) : (
          <>
            <Badge tone="success" mark="✓">
              Valid
            </Badge>{" "}
            This purchase code is valid
          </>
        )}
      </h2>
      <PreviousChecks history={check.history} />
      <LifecycleNotes lifecycle={check.lifecycle} />
      <div className={styles.purchase}>
        <MediaImage
          src={purchase.item.media.preview_image}
          alt={`Preview of ${purchase.item.name}`}
          className={styles.preview}
          fit="cover"
          width={320}
          height={180}
        />
        <DescriptionList
          items={[
            {
              term: "Item",
              description: (
                <span className={styles.itemLinks}>
                  {linkItems ? (
                    <Link href={`/items/${purchase.item.id}`}>{purchase.item.name}</Link>
                  ) : (
                    <span>{purchase.item.name}</span>
                  )}
                  <SafeLink href={purchase.item.url} missing={null}>
                    Item page
                  </SafeLink>
                </span>
              ),
            },
            { term: "Licence", description: purchase.license_type },
            { term: "Price", description: <Money amount={purchase.price} currency={purchase.currency} /> },
            { term: "Purchased", description: <LocalTime iso={purchase.date} display="both" /> },
            { term: "Downloaded", description: purchase.downloaded ? "Yes" : "Not yet" },
            { term: "Support", description: <SupportStatus supportedUntil={purchase.supported_until} /> },
            { term: "Purchase code", description: <code className={styles.code}>{purchase.purchase_code}</code> },
          ]}
        />
      </div>
    </div>
  );
}
