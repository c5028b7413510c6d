// Audit streaming in the server process: its kind of job, given to startJobs() at start-up with the process's store
// and configuration read when each tick runs; the first tick of each enabled destination's chain (the same job as
// another instance's for the same slot); and the pruning of the audit log (AUDIT_RETENTION_DAYS, never a row an
// enabled destination has not taken) and of the delivery log (AUDIT_STREAM_LOG_RETENTION_DAYS), hourly as the
// report history's.
import { randomUUID } from "node:crypto";

import "server-only";

import { getServerContext } from "@/lib/auth/access";
import type { AuditStreamsConfig } from "@/lib/config/audit-streams";
import { trigger } from "@/lib/jobs";
import { onShutdown } from "@/lib/lifecycle/shutdown";
import { describeError, logEvent, runOutsideRequestContext } from "@/lib/log";
import { processSlot } from "@/lib/process-wide";

import { pruneAuditLog, pruneDeliveryLog, streamStatus, type DestinationStatus } from "./cursor";
import { auditStreamJob, enabledDestinations, TICK_MS, tickJob } from "./stream-job";

const PRUNE_EVERY_MS = 60 * 60_000;

/** The kind of the streams' ticks, among the kinds startJobs() is given at start-up. */
export const auditStreamTicks = auditStreamJob({
  db: async () => (await getServerContext()).db,
  config: async () => (await getServerContext()).config.auditStreams,
  queueTick: (payload, options) => trigger(auditStreamTicks, payload, options),
  owner: `${process.pid}-${randomUUID()}`,
});

async function prune(): Promise<void> {
  try {
    const { db, config } = await getServerContext();
    const streams = config.auditStreams;
    const removed =
      streams.retentionDays === null ? 0 : await pruneAuditLog(db, streams.retentionDays, enabledDestinations(streams));
    const deliveries = await pruneDeliveryLog(db, streams.deliveryLogRetentionDays);
    if (removed > 0 || deliveries > 0) logEvent("info", "audit_log_pruned", { removed, deliveries });
  } catch (error) {
    logEvent("error", "audit_log_prune_failed", { error: describeError(error) });
  }
}

const STARTED = processSlot<true>("audit-streams.started");

/**
 * Triggers each enabled destination's tick and starts the pruning (instrumentation.ts, after startJobs); a second
 * call does nothing.
 */
export async function startAuditStreams(): Promise<void> {
  if (STARTED.get()) return;
  STARTED.set(true);
  const { config } = await getServerContext();
  const destinations = enabledDestinations(config.auditStreams);
  if (destinations.length > 0)
    logEvent("info", "audit_streams_started", {
      destinations: destinations.map((d) => describeDestination(config.auditStreams, d)),
    });
  for (const destination of destinations) {
    const startTicks = (): void => {
      const first = tickJob(destination, Date.now());
      void trigger(auditStreamTicks, first.payload, first.options).catch((error: unknown) => {
        // The provider's backend is away (Redis): try again at the next slot.
        logEvent("error", "audit_stream_tick_failed", { destination, error: describeError(error) });
        runOutsideRequestContext(() => setTimeout(startTicks, TICK_MS).unref());
      });
    };
    startTicks();
  }
  const pruner = runOutsideRequestContext(() => setInterval(() => void prune(), PRUNE_EVERY_MS).unref());
  void prune();
  onShutdown("audit log pruning", () => clearInterval(pruner));
}

/** A destination as an admin and a log line may see it: the syslog server's address, the collector's origin and path (never its query or token). */
export function describeDestination(
  config: Pick<AuditStreamsConfig, "syslog" | "http">,
  destination: "syslog" | "http",
): string {
  if (destination === "syslog") {
    const syslog = config.syslog;
    return syslog
      ? `${syslog.transport}://${syslog.host.includes(":") ? `[${syslog.host}]` : syslog.host}:${syslog.port}`
      : "";
  }
  if (!config.http) return "";
  const url = new URL(config.http.url);
  return `${url.origin}${url.pathname}`;
}

export interface AuditStreamsOverview {
  /** Whether any destination is configured. */
  on: boolean;
  destinations: Array<DestinationStatus & { target: string }>;
  /** AUDIT_RETENTION_DAYS (null: kept forever) and AUDIT_STREAM_LOG_RETENTION_DAYS. */
  retentionDays: number | null;
  deliveryLogRetentionDays: number;
}

/** What the audit page shows of the streams. */
export async function auditStreamsOverview(): Promise<AuditStreamsOverview> {
  const { db, config } = await getServerContext();
  const streams = config.auditStreams;
  const enabled = enabledDestinations(streams);
  const statuses = await streamStatus(db, enabled);
  return {
    on: enabled.length > 0,
    destinations: statuses.map((status) => ({ ...status, target: describeDestination(streams, status.destination) })),
    retentionDays: streams.retentionDays,
    deliveryLogRetentionDays: streams.deliveryLogRetentionDays,
  };
}
