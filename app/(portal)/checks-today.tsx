// "Your checks today" on the dashboard, for whoever checks purchase codes: how many, the share of each outcome,
// and the last few with a link back to the checker. Codes show as their last 4 characters, as in the history
// (the full code is never kept). The card and its placeholder share one fixed frame, so nothing below moves
// when the numbers arrive, whatever their count.
import Link from "next/link";

import { CodeStatusBadge, SupportExpiredBadge } from "@/components/portal/purchase-badges";
import { ButtonLink } from "@/components/ui/button-link";
import { Card } from "@/components/ui/card";
import { LocalTime } from "@/components/ui/local-time";
import { getServerContext } from "@/lib/auth/access";
import { getPersonTimeZone } from "@/lib/auth/time-zone";
import { checkShares, type CheckShareKey } from "@/lib/portal/dashboard";
import { historyQueryString } from "@/lib/portal/purchase-history-params";
import { userChecksOfDay } from "@/lib/purchases/today";

import styles from "./dashboard.module.css";

export const CHECKS_TODAY_TITLE = "Your checks today";
/** The newest checks listed; the frame reserves room for this many. */
export const LAST_CHECKS = 5;

const SHARE_CLASS: Record<CheckShareKey, string | undefined> = {
  valid: styles.shareValid,
  expired: styles.shareExpired,
  invalid: styles.shareInvalid,
  failed: styles.shareFailed,
};

/** The history filtered to this person's checks of the day: the page the card summarises (in the same zone). */
function historyHref(email: string, day: string): string {
  return `/purchases/history${historyQueryString({ user: email, from: day, to: day })}`;
}

export async function ChecksToday({ user }: { user: { id: string; email: string } }) {
  const [server, { zone }] = await Promise.all([getServerContext(), getPersonTimeZone()]);
  const today = await userChecksOfDay(server.db, server.config.dataKey, {
    userId: user.id,
    timeZone: zone,
    latest: LAST_CHECKS,
  });
  const shares = checkShares(today.counts);
  return (
    <Card
      title={CHECKS_TODAY_TITLE}
      asSection
      className={`${styles.wide} ${styles.today}`}
      actions={
        <ButtonLink href={historyHref(user.email, today.day)} size="sm">
          In the history
        </ButtonLink>
      }
    >
      <div className={styles.todayBody}>
        <div className={styles.todaySummary}>
          <div className={styles.todayCount}>
            <span className={styles.todayLabel}>Checks</span>
            <span className={`${styles.todayValue} tabular-nums`} data-testid="checks-today-total">
              {today.total.toLocaleString("en")}
            </span>
            <span className={styles.todayHint}>Since 00:00 ({zone})</span>
          </div>
          {/* The bar is for the eye; the list under it says the same in words. */}
          <div className={styles.shareBar} aria-hidden="true">
            {shares.map((share) =>
              share.count > 0 ? (
                <span key={share.key} className={SHARE_CLASS[share.key]} style={{ flexGrow: share.count }} />
              ) : null,
            )}
          </div>
          <ul className={styles.shareList} aria-label="By outcome">
            {shares.map((share) => (
              <li key={share.key}>
                <span className={`${styles.swatch} ${SHARE_CLASS[share.key]}`} aria-hidden="true" />
                <span className={styles.shareLabel}>{share.label}</span>
                <span className="tabular-nums">
                  {share.count} ({share.percent}%)
                </span>
              </li>
            ))}
          </ul>
        </div>
        <div className={styles.todayLatest}>
          <h3 className={styles.todayHeading}>Last checks</h3>
          {today.latest.length === 0 ? (
            <div className={styles.todayEmpty}>
              <p>No checks yet today.</p>
              <p>
                Check a code above, or paste many at once on the <Link href="/purchases/bulk">bulk check</Link> page.
              </p>
            </div>
          ) : (
            <ol className={styles.checks}>
              {today.latest.map((entry) => (
                <li key={entry.id} className={styles.check}>
                  <span className={styles.checkCode}>
                    {entry.code_last4 === "" ? (
                      "Short code"
                    ) : (
                      <code>
                        <span aria-hidden="true">••••</span>
                        <span className="visually-hidden">Code ending </span>
                        {entry.code_last4}
                      </code>
                    )}
                  </span>
                  <span className={styles.checkOutcome}>
                    {entry.support === "expired" ? <SupportExpiredBadge /> : <CodeStatusBadge status={entry.outcome} />}
                  </span>
                  <span className={styles.checkTime}>
                    <LocalTime iso={entry.checked_at} />
                  </span>
                  {/* Only the last 4 characters are kept: the checker opens empty, ready for the code. */}
                  <Link href="/purchases" className={styles.checkAgain}>
                    Check again
                    {/* The visible words first in the name, for voice control ("click Check again"). */}
                    {entry.code_last4 === "" ? null : (
                      <span className="visually-hidden"> for the code ending {entry.code_last4}</span>
                    )}
                  </Link>
                </li>
              ))}
            </ol>
          )}
        </div>
      </div>
    </Card>
  );
}

/** The card's frame while the numbers load: the same boxes, lines where the numbers go. */
export function ChecksTodayPlaceholder() {
  const shares = checkShares({ valid: 0, expired: 0, invalid: 0, failed: 0 });
  return (
    <Card
      title={CHECKS_TODAY_TITLE}
      className={`${styles.wide} ${styles.today}`}
      actions={<span className={styles.actionSlot} aria-hidden="true" />}
    >
      <p className="visually-hidden" role="status">
        Loading your checks of today…
      </p>
      <div className={styles.todayBody} aria-busy="true" aria-hidden="true">
        <div className={styles.todaySummary}>
          <div className={styles.todayCount}>
            <span className={styles.todayLabel}>Checks</span>
            <span className={styles.todayValue}>
              <span className={styles.pending} />
            </span>
            <span className={styles.todayHint}>Since 00:00</span>
          </div>
          <div className={styles.shareBar} />
          <ul className={styles.shareList}>
            {shares.map((share) => (
              <li key={share.key}>
                <span className={`${styles.swatch} ${SHARE_CLASS[share.key]}`} />
                <span className={styles.shareLabel}>{share.label}</span>
                <span className={styles.pending} />
              </li>
            ))}
          </ul>
        </div>
        <div className={styles.todayLatest}>
          <h3 className={styles.todayHeading}>Last checks</h3>
          <div className={styles.checks} />
        </div>
      </div>
    </Card>
  );
}
