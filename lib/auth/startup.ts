// Accounts at server start (instrumentation.ts, after the gateway's own start): read the accounts configuration
// (checked already), open the store (created private, migrations run), refuse a configured start on a store that
// holds demo accounts, then create the first admin or, in demo mode, the demo accounts; every secret is
// registered for redaction. A store that cannot open or must not be used ends the process with one line naming
// what to fix — never a secret's value, never a stack trace.
import "server-only";

import { getConfig, isDemoMode } from "@/lib/config";
import { isConfigError } from "@/lib/config/env";
import { exitWithProblems } from "@/lib/config/startup";
import { describeTarget, storeTarget, withoutDatabasePassword } from "@/lib/config/store";
import { closeDb, getStore } from "@/lib/db";
import { onShutdown } from "@/lib/lifecycle/shutdown";
import { logEvent, registerSecrets } from "@/lib/log";

import { prepareAccounts } from "./bootstrap";
import { demoAccountsRefusal, findDemoAccounts } from "./demo-accounts";

/** Ends the start with one line on stderr (exit 1). */
function refuse(line: string): never {
  process.stderr.write(`${line.replace(/[\r\n]+/g, " ")}\n`);
  process.exit(1);
}

export async function startAccountsOrExit(): Promise<void> {
  const demoMode = isDemoMode();
  let config;
  try {
    config = await getConfig();
  } catch (error) {
    if (!isConfigError(error)) throw error;
    exitWithProblems(error.problems);
  }
  registerSecrets([
    ...config.session.secrets,
    config.dataKey,
    ...(config.firstAdmin ? [config.firstAdmin.password] : []),
  ]);

  const target = storeTarget();
  const where = describeTarget(target);
  let store;
  try {
    store = await getStore(target);
  } catch (error) {
    // The store's messages name the file or say what failed; a PostgreSQL URL's password is kept out.
    const message = error instanceof Error ? error.message : String(error);
    refuse(`Cannot open the accounts store (${where}): ${withoutDatabasePassword(message)}`);
  }
  for (const note of store.notes) logEvent("warn", note);
  // After the requests in flight and everything else that may still write to it (the job system's runs).
  onShutdown("database", closeDb, { last: true });

  if (!demoMode) {
    const demoAccounts = await findDemoAccounts(store.db);
    if (demoAccounts.length > 0) refuse(demoAccountsRefusal(demoAccounts, where));
  }

  const startup = await prepareAccounts(store.db, { config, demoMode });
  logEvent("info", `Accounts: ${store.dialect === "sqlite" ? "SQLite" : "PostgreSQL"} store ready (${where}).`, {
    store: store.dialect,
    session_secret: config.session.secretSource,
    trust_proxy: config.edge.trustProxyHops,
    public_origin: config.edge.publicOrigin,
    allowed_hosts: config.edge.allowedHosts,
    purchase_rate_limits: config.purchases.rateLimits,
  });
  for (const message of startup.messages) logEvent(message.level, message.text);
}
