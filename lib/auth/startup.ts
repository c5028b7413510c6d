// Accounts at server start (instrumentation.ts, after the gateway's own start): read and check the accounts
// configuration, open the store (migrations run, the data folder is created), create the first admin or the
// demo accounts, and register every secret for redaction. A bad configuration or a store that cannot open ends
// the process with a message naming what to fix, never a secret's value, and no stack trace.
import "server-only";

import { isDemoMode } from "@/lib/config";
import { getAuthConfig } from "@/lib/config/auth";
import { ConfigError } from "@/lib/config/env";
import { getStore } from "@/lib/db";
import { logEvent, registerSecrets } from "@/lib/log";

import { prepareAccounts } from "./bootstrap";

export async function startAccountsOrExit(): Promise<void> {
  const demoMode = isDemoMode();
  let config;
  try {
    config = getAuthConfig({ demoMode });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  registerSecrets([...config.sessionSecrets, config.purchaseCodeHashKey, ...(config.firstAdmin ? [config.firstAdmin.password] : [])]);

  let store;
  try {
    store = await getStore();
  } catch (error) {
    // The store's messages name the file or say what failed; a PostgreSQL URL's password is kept out.
    const message = error instanceof Error ? error.message : String(error);
    console.error(`Cannot open the accounts store: ${withoutDatabasePassword(message)}`);
    process.exit(1);
  }

  const startup = await prepareAccounts(store.db, { config, demoMode });
  logEvent("info", `Accounts: ${store.dialect === "sqlite" ? "SQLite" : "PostgreSQL"} store ready.`, {
    store: store.dialect,
    session_secret: config.sessionSecretSource,
    trust_proxy: config.edge.trustProxyHops,
    public_origin: config.edge.publicOrigin,
    purchase_rate_limits: config.purchaseRateLimits,
  });
  for (const message of startup.messages) logEvent("info", message);
}

function withoutDatabasePassword(text: string): string {
  const password = (() => {
    try {
      return decodeURIComponent(new URL(process.env.DATABASE_URL ?? "").password);
    } catch {
      return "";
    }
  })();
  return password === "" ? text : text.split(password).join("[REDACTED]");
}
