"use client";
// The bell in the top bar: a link to the alerts with the number of unread ones, asked for on mount and every minute (and
// again whenever the alerts page acknowledges some: it revalidates this key). The count is in the link's name,
// so a screen reader says "Alerts, 3 unread".
import Link from "next/link";
import useSWR from "swr";

import styles from "./alert-bell.module.css";

export const ALERT_COUNT_KEY = "/api/alerts/count";

export function AlertBell() {
  const { data } = useSWR<{ data: { unread: number } }>(ALERT_COUNT_KEY, {
    refreshInterval: 60_000,
    revalidateOnMount: true,
  });
  const unread = data?.data.unread ?? 0;
  const shown = unread > 99 ? "99+" : String(unread);
  return (
    <Link
      href="/alerts"
      className={styles.bell}
      aria-label={unread > 0 ? `Alerts, ${unread} unread` : "Alerts, none unread"}
    >
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
        <path
          d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z"
          fill="currentColor"
        />
      </svg>
      {unread > 0 ? (
        <span className={styles.count} aria-hidden="true">
          {shown}
        </span>
      ) : null}
    </Link>
  );
}
