// Every environment variable Gatehouse reads, in one list: the start-up check names look-alikes of these ("did
// you mean …"), and never prints the value of one marked secret. Add a variable here when code starts reading it
// (tests/unit/lib/config/variables.test.ts finds names in lib/config that are missing). No `server-only`: the CLIs use it.

export interface VariableInfo {
  /** Its value may never appear in a message or a log line (a key, a password, a URL that may carry one). */
  secret?: true;
  /** Read in demo mode; a configured deployment's other settings are ignored there (listed when set). */
  demo?: true;
}

export const VARIABLES = {
  // How Gatehouse runs
  GATEHOUSE_DEMO: { demo: true },
  DEMO_DATA_DIR: { demo: true },
  SANDBOX_PORT: { demo: true },
  PORT: { demo: true },
  HOST: { demo: true },
  // The upstream areas
  REPORTS_API_BASE_URL: {},
  REPORTS_API_KEY: { secret: true },
  ITEMS_API_BASE_URL: {},
  ITEMS_API_KEY: { secret: true },
  ITEMS_API_KEY_LOCATION: {},
  // Upstream keys kept in the portal, sealed under this key-encryption key (lib/config/kek.ts)
  GATEHOUSE_KEK: { secret: true },
  GATEHOUSE_KEK_PREVIOUS: { secret: true },
  // Upstream policies and shutdown
  UPSTREAM_TIMEOUT_MS: { demo: true },
  UPSTREAM_RETRIES: { demo: true },
  UPSTREAM_BREAKER_FAILURES: { demo: true },
  UPSTREAM_BREAKER_OPEN_MS: { demo: true },
  UPSTREAM_CACHE_REPORTS_TTL_MS: { demo: true },
  UPSTREAM_CACHE_ITEMS_TTL_MS: { demo: true },
  UPSTREAM_CACHE_MAX_ENTRIES: { demo: true },
  UPSTREAM_CACHE_MAX_MB: { demo: true },
  SHUTDOWN_TIMEOUT_MS: { demo: true },
  // The HTTP server's patience with slow clients (lib/config/http-server.ts)
  HTTP_HEADERS_TIMEOUT_MS: { demo: true },
  HTTP_REQUEST_TIMEOUT_MS: { demo: true },
  HTTP_KEEP_ALIVE_TIMEOUT_MS: { demo: true },
  // Accounts
  DATABASE_URL: { secret: true },
  SESSION_SECRET: { secret: true },
  SESSION_ABSOLUTE_TIMEOUT_HOURS: { demo: true },
  SESSION_IDLE_TIMEOUT_MINUTES: { demo: true },
  ADMIN_EMAIL: {},
  ADMIN_PASSWORD: { secret: true },
  PURCHASE_CODE_HASH_KEY: { secret: true },
  // Single sign-on (OpenID Connect) and password sign-in (lib/config/oidc.ts)
  OIDC_ISSUER: {},
  OIDC_CLIENT_ID: {},
  OIDC_CLIENT_SECRET: { secret: true },
  OIDC_SCOPES: {},
  OIDC_ROLE_CLAIM: {},
  OIDC_ROLE_MAP: {},
  OIDC_DEFAULT_ROLE: {},
  OIDC_LABEL: {},
  OIDC_RECHECK_MINUTES: {},
  PASSWORD_LOGIN: {},
  BREAK_GLASS_EMAIL: {},
  // The request edge
  PUBLIC_ORIGIN: {},
  ALLOWED_HOSTS: {},
  TRUST_PROXY: {},
  // Several instances
  REDIS_URL: { secret: true },
  INSTANCE_ID: { demo: true },
  // Monitoring
  METRICS_TOKEN: { secret: true, demo: true },
  // Traces (lib/config/telemetry.ts): the standard OpenTelemetry variables; the SDK reads them itself. An endpoint
  // or its headers may carry a collector's token.
  OTEL_EXPORTER_OTLP_ENDPOINT: { secret: true, demo: true },
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: { secret: true, demo: true },
  OTEL_EXPORTER_OTLP_PROTOCOL: { demo: true },
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: { demo: true },
  OTEL_EXPORTER_OTLP_HEADERS: { secret: true, demo: true },
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: { secret: true, demo: true },
  OTEL_SERVICE_NAME: { demo: true },
  OTEL_RESOURCE_ATTRIBUTES: { demo: true },
  OTEL_TRACES_SAMPLER: { demo: true },
  OTEL_TRACES_SAMPLER_ARG: { demo: true },
  OTEL_BSP_SCHEDULE_DELAY: { demo: true },
  OTEL_SDK_DISABLED: { demo: true },
  // Purchase checks
  PURCHASE_RATE_LIMIT_PER_USER: { demo: true },
  PURCHASE_RATE_LIMIT_PER_IP: { demo: true },
  PURCHASE_BULK_LIMIT_PER_HOUR: { demo: true },
  PURCHASE_CODE_FORMAT: { demo: true },
  ITEMS_API_CALLS_PER_MINUTE: { demo: true },
  PURCHASE_SWEEP_MAX_SHARE: { demo: true },
  // Licence activations
  LICENCE_RATE_LIMIT_PER_CODE: { demo: true },
  LICENCE_RATE_LIMIT_PER_IP: { demo: true },
  LICENCE_RATE_LIMIT_PER_ITEM: { demo: true },
  LICENCE_API_MAX_SHARE: { demo: true },
  // Reports over time
  REPORT_HISTORY_RETENTION_DAYS: { demo: true },
  REPORTS_API_CALLS_PER_MINUTE: { demo: true },
  REPORT_SCHEDULE_MAX_SHARE: { demo: true },
  // Integration access
  TOKEN_RATE_LIMIT_PER_MINUTE: { demo: true },
  WEBHOOK_ALLOW_PRIVATE: { demo: true },
  // Audit streaming and retention (lib/config/audit-streams.ts)
  AUDIT_SYSLOG_URL: {},
  AUDIT_SYSLOG_CA_FILE: {},
  AUDIT_HTTP_URL: { secret: true },
  AUDIT_HTTP_TOKEN: { secret: true },
  AUDIT_RETENTION_DAYS: {},
  AUDIT_STREAM_LOG_RETENTION_DAYS: {},
  // Read by next.config.mjs, not by the server's configuration, but ours all the same.
  NEXT_DIST_DIR: { demo: true },
} as const satisfies Record<string, VariableInfo>;

export type VariableName = keyof typeof VARIABLES;

/** Variables Gatehouse no longer reads, with the sentence that says what to do instead: set, they stop the start. */
export const RETIRED_VARIABLES: Readonly<Record<string, string>> = {
  WEBHOOK_RETRY_SPEEDUP:
    "is no longer read: it only made tests' webhook retries quicker, and deliveries keep their fixed schedule (docs/http-api.md#webhooks); unset it",
  SANDBOX_CONTROL:
    "is no longer read: the sandbox's control API is a flag of its command, npm run sandbox -- --control; unset it",
  SANDBOX_DATA_DIR:
    "is no longer read: the sandbox's folder is a flag of its command, npm run sandbox -- --data-dir DIR; unset it",
};

export const VARIABLE_NAMES = Object.keys(VARIABLES) as VariableName[];

export function isKnownVariable(name: string): name is VariableName {
  return Object.hasOwn(VARIABLES, name);
}

export function isSecretVariable(name: string): boolean {
  return isKnownVariable(name) && (VARIABLES[name] as VariableInfo).secret === true;
}

/** Settings of a configured deployment that demo mode ignores (it keeps its own store, secret and hosts). */
export const CONFIGURED_ONLY = VARIABLE_NAMES.filter((name) => (VARIABLES[name] as VariableInfo).demo !== true);

/** A value as it may appear in a message: quoted, on one line, at most 80 characters. Never for a secret. */
export function quoteValue(value: string): string {
  const shown = value.length > 80 ? `${value.slice(0, 80)}…` : value;
  return JSON.stringify(shown);
}
