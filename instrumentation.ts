// Runs once when the Next.js server starts, before it answers requests: validates the configuration (a bad
// one stops the start with a message naming the variable), in demo mode starts the embedded sandbox, then opens
// Redis when REDIS_URL is set (lib/cluster), the accounts store and the first admin (or, in demo mode, the demo
// accounts); then checks the upstream keys kept in the portal open with GATEHOUSE_KEK and writes
// `upstream.key_rejected` rows; then says how single sign-on is set up (asking the provider in the background);
// then starts the job system (lib/jobs: BullMQ with REDIS_URL, the store otherwise) with its kinds — webhook
// deliveries, bulk purchase checks, the report schedules' ticks and runs, the purchase lifecycle's sweep, the
// notifications' deliveries and tick, the audit streams' ticks — then their sweeps (what an earlier process left pending is queued again), the current
// slot's schedule tick, the purchase sweep's minute tick and the notifications' tick (each tick triggers the next),
// the history's pruning, and the events' sinks (the webhooks', the notifications' rules) with the notifications'
// delivery sweep; last, each enabled audit stream's first tick and the audit log's pruning.
export async function register(): Promise<void> {
  // The gateway lives in the Node.js runtime only; `next build` must not start a sandbox or open a store either.
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { startGatewayOrExit } = await import("./lib/config/startup");
  const { explainMissingKek } = await import("./lib/upstream/keys/missing-kek");
  await startGatewayOrExit(explainMissingKek);
  const { getConfig } = await import("./lib/config");
  const { startInstance } = await import("./lib/cluster/startup");
  startInstance(await getConfig());
  const { startAccountsOrExit } = await import("./lib/auth/startup");
  await startAccountsOrExit();
  const { startUpstreamKeysOrExit } = await import("./lib/upstream/keys/startup");
  await startUpstreamKeysOrExit();
  const { watchKeyRejections } = await import("./lib/api/upstream-keys");
  watchKeyRejections();
  const { startSingleSignOn } = await import("./lib/auth/oidc/startup");
  await startSingleSignOn();
  const { startJobs } = await import("./lib/jobs");
  const { currentCluster } = await import("./lib/cluster");
  const { getServerContext } = await import("./lib/auth/access");
  const { webhookDeliveries, startWebhooks } = await import("./lib/webhooks");
  const { bulkChecks, startBulkChecks } = await import("./lib/purchases/bulk/queue");
  const { reportScheduleTicks, reportScheduleRuns, startReportJobs } = await import("./lib/reports/service");
  const { purchaseSweeps, startPurchaseSweep } = await import("./lib/purchases/sweep-service");
  const { notificationDeliveries } = await import("./lib/notifications");
  const { notificationTicks, startNotifications } = await import("./lib/notifications/service");
  const { auditStreamTicks, startAuditStreams } = await import("./lib/audit-streams/service");
  const kinds = [webhookDeliveries, bulkChecks, reportScheduleTicks, reportScheduleRuns, purchaseSweeps];
  await startJobs([...kinds, notificationDeliveries, notificationTicks, auditStreamTicks], {
    cluster: currentCluster(),
    db: async () => (await getServerContext()).db,
  });
  startWebhooks();
  startBulkChecks();
  startReportJobs();
  startPurchaseSweep();
  startNotifications();
  await startAuditStreams();
}
