// Runs once when the Next.js server starts, before it answers requests: validates the configuration (a bad
// one stops the start with a message naming the variable), starts tracing when an OTLP endpoint is set (lib/telemetry:
// the SDK is not even loaded otherwise), in demo mode starts the embedded sandbox, then opens
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
  await startTraces((await getConfig()).edge);
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

/**
 * OpenTelemetry, when OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT) is set: a request's `traceparent` is
 * continued only when a proxy TRUST_PROXY trusts passed the request on (it wrote the trusted X-Forwarded-For entry).
 */
async function startTraces(edge: import("./lib/config/edge").EdgeSettings): Promise<void> {
  const { readTelemetrySettings } = await import("./lib/config/telemetry");
  const { settings } = readTelemetrySettings(process.env);
  // (Problems were reported by the start-up check above, which stopped the start.)
  if (!settings) return;
  const { startTracing } = await import("./lib/telemetry/start");
  const { clientAddress } = await import("./lib/auth/request");
  const { onShutdown } = await import("./lib/lifecycle/shutdown");
  // Next's own span per fetch names the whole URL (area B's key is in its query); Gatehouse's `upstream.call` span
  // covers each upstream call instead. Next reads this per fetch.
  process.env.NEXT_OTEL_FETCH_DISABLED = "1";
  const tracing = await startTracing({
    ...settings,
    trusted: (headers) => clientAddress(headers, edge) !== null,
  });
  // After the requests in flight, so that their spans are sent too.
  onShutdown("traces", tracing.shutdown);
}
