// The server's configuration, one setting group per room: sessions and the server's secrets (./session.ts), the
// request edge (./edge.ts), purchase checks (./purchases.ts), reports over time (./reports.ts), API tokens and
// webhooks (./integrations.ts). Read from the environment when asked (never at import), validated with zod, and
// reported by variable name — a secret's value never appears in a message.
import "server-only";

import { z } from "zod";

import { DEMO_EDGE_SETTINGS, parseEdgeSettings, type EdgeSettings } from "./edge";
import { auditStreamsConfig, auditStreamVariables, type AuditStreamsConfig } from "./audit-streams";
import { ConfigError, type ConfigProblem } from "./env";
import { integrationsConfig, integrationVariables, type TokensConfig, type WebhooksConfig } from "./integrations";
import { demoDataDir } from "./mode";
import { purchasesConfig, purchaseVariables, type PurchasesConfig } from "./purchases";
import { reportsConfig, reportVariables, type ReportsConfig } from "./reports";
import {
  readDataKey,
  readFirstAdmin,
  readSessionSecrets,
  sessionLifetimes,
  sessionVariables,
  type SessionConfig,
} from "./session";
import { CONFIGURED_ONLY, isSecretVariable } from "./variables";

type Env = Record<string, string | undefined>;

export interface ServerConfig {
  session: SessionConfig;
  /** From ADMIN_EMAIL and ADMIN_PASSWORD; creates the first admin when the store has no user yet. */
  firstAdmin: { email: string; password: string } | null;
  /**
   * The data key (PURCHASE_CODE_HASH_KEY, or derived from the newest SESSION_SECRET when unset): it keys the
   * purchase codes' hashes and upstream keys' fingerprints, and each seal of data at rest derives its own key from it
   * (lib/seal.ts: bulk jobs' codes, webhook signing secrets, report share passwords).
   */
  dataKey: string;
  /** Whether the data key was set ("env") or derived from SESSION_SECRET, which then rotates it too. */
  dataKeySource: "env" | "derived";
  /** TRUST_PROXY, PUBLIC_ORIGIN and ALLOWED_HOSTS (./edge.ts). */
  edge: EdgeSettings;
  purchases: PurchasesConfig;
  reports: ReportsConfig;
  tokens: TokensConfig;
  webhooks: WebhooksConfig;
  /** Audit streaming (syslog, an HTTP collector) and the audit log's retention (./audit-streams.ts). */
  auditStreams: AuditStreamsConfig;
}

export interface LoadServerConfigOptions {
  env?: Env;
  /**
   * Demo mode ignores a configured deployment's settings (its secrets, first admin, origin and proxy): the session
   * secret is generated once and kept in `<dataDir>/session-secret`.
   */
  demoMode: boolean;
  /** Demo mode's folder (default: DEMO_DATA_DIR, ./data/demo). */
  dataDir?: string;
}

const envSchema = z.object({
  ...sessionVariables,
  ...purchaseVariables,
  ...reportVariables,
  ...integrationVariables,
  ...auditStreamVariables,
});

/** The environment without the settings only a configured deployment reads (the demo keeps its own). */
function withoutConfiguredSettings(env: Env): Env {
  const ignored = new Set<string>(CONFIGURED_ONLY);
  return Object.fromEntries(Object.entries(env).filter(([name]) => !ignored.has(name)));
}

// An empty variable (`FOO=` in a .env file) means "not set".
function withoutEmpty(env: Env): Env {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ""));
}

/** Reads and validates the server's configuration. Throws a ConfigError listing every problem at once. */
export function loadServerConfig({
  env: given = process.env,
  demoMode,
  dataDir = demoDataDir(given),
}: LoadServerConfigOptions): ServerConfig {
  const env = demoMode ? withoutConfiguredSettings(given) : given;
  const present = withoutEmpty(env);
  const parsed = envSchema.safeParse(present);
  const edge = demoMode ? { settings: DEMO_EDGE_SETTINGS, problems: [] } : parseEdgeSettings(env);
  const problems: ConfigProblem[] = [...edge.problems];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      // The field schemas shared with the users repository say "email must …" / "password must …".
      const problem = issue.message.replace(/^(email|password) /, "");
      const variable = String(issue.path[0] ?? "environment");
      problems.push({ variable, problem, value: isSecretVariable(variable) ? undefined : present[variable] });
    }
  }
  const secrets = readSessionSecrets(present.SESSION_SECRET, { demoMode, dataDir }, problems);
  if (!parsed.success) throw new ConfigError(problems);
  const vars = parsed.data;
  const session = { ...secrets, ...sessionLifetimes(vars, problems) };
  const firstAdmin = readFirstAdmin(vars, problems);
  const auditStreams = auditStreamsConfig(vars);
  problems.push(...auditStreams.problems);
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    session,
    firstAdmin,
    ...readDataKey(vars, session.secrets[0] ?? ""),
    edge: edge.settings,
    purchases: purchasesConfig(vars),
    reports: reportsConfig(vars),
    ...integrationsConfig(vars),
    auditStreams: auditStreams.config,
  };
}
