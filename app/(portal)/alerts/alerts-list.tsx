"use client";
// The alerts of the page, each with "Acknowledge", and "Acknowledge all unread". After either the server renders
// the list again and the bell asks for its count again.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { useSWRConfig } from "swr";

import { ALERT_COUNT_KEY } from "@/components/portal/alert-bell";
import { ResultBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { useToast } from "@/components/ui/toast";
import type { Alert } from "@/lib/contract/history";
import { apiRequest } from "@/lib/portal/api-client";
import { projectOverviewHref } from "@/lib/portal/trends";

import styles from "./alerts.module.css";

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
  const [busy, setBusy] = useState<number | "all" | null>(null);

  const acknowledge = async (target: number | "all") => {
    setBusy(target);
    try {
      const { data } = await apiRequest<{ data: { acknowledged: number } }>("/api/alerts/acknowledge", {
        method: "POST",
        body: target === "all" ? { all: true } : { ids: [target] },
      });
      toast.success(data.acknowledged === 1 ? "Alert acknowledged." : `${data.acknowledged} alerts acknowledged.`);
      void mutate(ALERT_COUNT_KEY);
      startTransition(() => router.refresh());
    } catch (error) {
      toast.error(`Nothing was acknowledged. ${(error as Error).message}`);
    } finally {
      setBusy(null);
    }
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
          <Button
            variant="secondary"
            size="sm"
            loading={busy === "all"}
            loadingText="Acknowledging…"
            onClick={() => void acknowledge("all")}
          >
            Acknowledge all unread
          </Button>
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
              <Button
                variant="secondary"
                size="sm"
                loading={busy === alert.id}
                loadingText="Acknowledging…"
                aria-label={`Acknowledge the alert for ${alert.url}`}
                onClick={() => void acknowledge(alert.id)}
              >
                Acknowledge
              </Button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
