"use client";
// The alerts of the page, each with "Acknowledge", and "Acknowledge all unread"; each names its report (id, project,
// when it was generated), so alerts of one URL are told apart. After either the server renders the list again and
// the bell asks for its count again; the toast's Undo makes them unread again.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTransition, type ReactNode } from "react";
import { useSWRConfig } from "swr";

import { ALERT_COUNT_KEY } from "@/components/portal/alert-bell";
import { ResultBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { useToast } from "@/components/ui/toast";
import { useApiAction } from "@/components/use-api-form";
import type { Alert } from "@/lib/contract/history";
import { apiRequest } from "@/lib/portal/api-client";
import { projectOverviewHref } from "@/lib/portal/trends";

import styles from "./alerts.module.css";

/** The acknowledge route's answer: how many, and its time, which names it for Undo. */
interface Acknowledgement {
  acknowledged: number;
  acknowledged_at: string;
}

export function AlertsList({
  alerts,
  total,
  showAcknowledgeAll,
}: {
  alerts: readonly Alert[];
  total: number;
  showAcknowledgeAll: boolean;
}) {
  const router = useRouter();
  const toast = useToast();
  const { mutate } = useSWRConfig();
  const [pending, startTransition] = useTransition();
  const refresh = () => {
    void mutate(ALERT_COUNT_KEY);
    startTransition(() => router.refresh());
  };
  const acknowledged = ({ acknowledged: count, acknowledged_at }: Acknowledgement) => {
    toast.success(count === 1 ? "Alert acknowledged." : `${count} alerts acknowledged.`, {
      undo: async () => {
        await apiRequest("/api/alerts/unacknowledge", { method: "POST", body: { acknowledged_at } });
        refresh();
        return count === 1 ? "The alert is unread again." : `${count} alerts are unread again.`;
      },
    });
    refresh();
  };

  if (alerts.length === 0) {
    return (
      <EmptyState title="No alerts" headingLevel={2}>
        No report dropped that matches these filters.
      </EmptyState>
    );
  }
  return (
    <div className={styles.list} aria-busy={pending}>
      <div className={styles.bar}>
        <span>
          <span role="status">
            {total} {total === 1 ? "alert" : "alerts"}
          </span>
          <span className={styles.order}> · Newest first</span>
        </span>
        {showAcknowledgeAll ? (
          <AcknowledgeButton target="all" onAcknowledged={acknowledged}>
            Acknowledge all unread
          </AcknowledgeButton>
        ) : null}
      </div>
      <ul className={styles.alerts}>
        {alerts.map((alert) => (
          <li key={alert.id} className={alert.acknowledged_at ? styles.read : styles.unread}>
            <div className={styles.what}>
              <Link href={`/reports/${alert.report_id}`} className={styles.url}>
                {alert.url}
              </Link>
              <span className={styles.drop}>
                <ResultBadge result={alert.from} /> <span aria-hidden="true">→</span>
                <span className="visually-hidden">dropped to</span> <ResultBadge result={alert.to} />
              </span>
              <span className={styles.meta}>
                {/* Several reports may have one URL, and one report many drops: its id and time tell them apart. */}
                <Link href={`/reports/${alert.report_id}`} aria-label={`Report #${alert.report_id} of ${alert.url}`}>
                  Report #{alert.report_id}
                </Link>{" "}
                ·{" "}
                {alert.project ? <Link href={projectOverviewHref(alert.project)}>{alert.project}</Link> : "No project"}{" "}
                · generated <LocalTime iso={alert.generated_at} display="both" />
                {alert.acknowledged_at ? (
                  <>
                    {" "}
                    · acknowledged by {alert.acknowledged_by ?? "someone"} <LocalTime iso={alert.acknowledged_at} />
                  </>
                ) : null}
              </span>
            </div>
            {alert.acknowledged_at ? null : (
              <AcknowledgeButton
                target={alert.id}
                label={`Acknowledge the alert for ${alert.url}`}
                onAcknowledged={acknowledged}
              >
                Acknowledge
              </AcknowledgeButton>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Acknowledges one alert, or every unread one; busy while it is sent, a failure in a toast. */
function AcknowledgeButton({
  target,
  label,
  onAcknowledged,
  children,
}: {
  target: number | "all";
  label?: string;
  onAcknowledged: (answer: Acknowledgement) => void;
  children: ReactNode;
}) {
  const toast = useToast();
  const { busy, send } = useApiAction();
  const acknowledge = async () => {
    const answer = await send<{ data: Acknowledgement }>("/api/alerts/acknowledge", {
      method: "POST",
      body: target === "all" ? { all: true } : { ids: [target] },
      onRefused: (error) => toast.error(`Nothing was acknowledged. ${error.message}`),
    });
    if (answer) onAcknowledged(answer.data);
  };
  return (
    <Button
      variant="secondary"
      size="sm"
      loading={busy}
      loadingText="Acknowledging…"
      aria-label={label}
      onClick={() => void acknowledge()}
    >
      {children}
    </Button>
  );
}
