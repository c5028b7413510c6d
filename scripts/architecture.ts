// The rooms of the code and the floors they stand on. FLOORS is the one list of them: dependency-cruiser's rules
// (.dependency-cruiser.mjs loads them from here) and the diagram in docs/architecture.md are computed from it.
// dependency-cruiser reads and resolves the imports; tests/unit/scripts/architecture.test.ts fails on one that
// runs up a floor or sideways, on a script that imports vitest, and on a stale diagram. `npm run depcruise` checks
// the imports from the command line; `npx tsx scripts/architecture.ts` prints the diagram (Mermaid) to paste there.
import path from "node:path";

import type { IConfiguration, ICruiseResult, IForbiddenRuleType } from "dependency-cruiser";

const ROOT = path.resolve(__dirname, "..");

export interface Room {
  name: string;
  /** Files of the room: a folder (`lib/auth/`) or single files. */
  paths: readonly string[];
  /** What lives there, for the diagram's reader. */
  what: string;
  /** The only rooms below it that it may import, when not all of them. */
  only?: readonly string[];
}

/** Bottom floor first. A room may import rooms of lower floors only; rooms of one floor do not import each other. */
export const FLOORS: ReadonlyArray<readonly Room[]> = [
  // Alone at the bottom: every room may import it, the log and the metrics too (their process-wide state).
  [
    {
      name: "base",
      paths: ["lib/brand.ts", "lib/process-wide.ts", "lib/read-capped.ts", "lib/seal.ts", "lib/net.ts", "lib/csv.ts"],
      what: "brands, process-wide state, capped reads, sealing small secrets at rest, IP ranges, CSV cells",
    },
  ],
  [
    { name: "contract", paths: ["lib/contract/"], what: "the API's schemas and plain values (no I/O)" },
    { name: "log", paths: ["lib/log/"], what: "structured, redacted log lines" },
    { name: "sandbox", paths: ["lib/sandbox/"], what: "the stand-in upstream APIs" },
    { name: "metrics", paths: ["lib/metrics/"], what: "Prometheus metrics, one registry per process" },
  ],
  [
    { name: "lifecycle", paths: ["lib/lifecycle/"], what: "graceful shutdown" },
    {
      name: "events",
      paths: ["lib/events/"],
      what: "what happened: emitted here, taken by each sink (webhooks, notifications)",
    },
    { name: "telemetry", paths: ["lib/telemetry/"], what: "traces: OpenTelemetry's spans, trace ids and context" },
  ],
  [{ name: "config", paths: ["lib/config/"], what: "the environment, read once and checked" }],
  [
    { name: "db", paths: ["lib/db/"], what: "the store (SQLite, PostgreSQL)" },
    { name: "cluster", paths: ["lib/cluster/"], what: "what instances share: Redis, the bus between them" },
  ],
  [
    { name: "upstream", paths: ["lib/upstream/"], what: "the HTTP layer, policies, one client per area" },
    { name: "auth", paths: ["lib/auth/"], what: "sessions, users, roles, audit, the request edge" },
    { name: "jobs", paths: ["lib/jobs/"], what: "one job system: BullMQ or the store" },
  ],
  [
    { name: "purchases", paths: ["lib/purchases/"], what: "the purchase checker: codes, checks, history, bulk jobs" },
    { name: "reports", paths: ["lib/reports/"], what: "reports over time: history, trends, schedules, alerts" },
    { name: "tokens", paths: ["lib/tokens/"], what: "API tokens: secrets, scopes, who a bearer speaks for" },
    {
      name: "webhooks",
      paths: ["lib/webhooks/"],
      what: "webhook endpoints, durable deliveries, signing, safe sending",
    },
    {
      name: "audit_streams",
      paths: ["lib/audit-streams/"],
      what: "the audit log streamed to syslog and an HTTP collector, its cursors, delivery log and retention",
    },
  ],
  [
    {
      name: "licences",
      paths: ["lib/licences/"],
      what: "licence activations: policies, activations, the signing key, the public API's flow",
    },
    {
      name: "notifications",
      paths: ["lib/notifications/"],
      what: "notifications where people work: channels, subscriptions, what lasts, deliveries, digests",
    },
  ],
  [
    { name: "api", paths: ["lib/api/"], what: "the operations table, the route pipeline, OpenAPI" },
    { name: "portal", paths: ["lib/portal/"], what: "what pages share: URL state, words, the API client" },
  ],
  [{ name: "cli", paths: ["lib/cli/"], what: "npm start, npm run demo, npm run users" }],
  // A component renders what it is given: it never reads the configuration, the store or an upstream.
  [{ name: "components", paths: ["components/"], what: "UI pieces", only: ["contract", "portal"] }],
  [
    {
      name: "app",
      paths: ["app/", "proxy.ts", "instrumentation.ts"],
      what: "pages, route handlers, the proxy, start-up",
    },
  ],
];

const ROOMS = FLOORS.flat();
const TOP_FLOOR = FLOORS.length - 1;

/** The room a repository path belongs to, or null (tests, scripts, configuration files). */
export function roomOf(file: string): string | null {
  for (const room of ROOMS) {
    if (room.paths.some((p) => (p.endsWith("/") ? file.startsWith(p) : file === p))) return room.name;
  }
  return null;
}

/** A room's files, as dependency-cruiser's path patterns. */
function patterns(rooms: readonly Room[]): string[] {
  return rooms.flatMap((room) =>
    room.paths.map((p) => `^${p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}${p.endsWith("/") ? "" : "$"}`),
  );
}

function rule(name: string, comment: string, from: Room, to: readonly Room[]): IForbiddenRuleType[] {
  if (to.length === 0) return [];
  return [{ name, comment, severity: "error", from: { path: patterns([from]) }, to: { path: patterns(to) } }];
}

/** For each room: no import of a room above it, none of a room beside it, and none outside its `only`. */
function floorRules(): IForbiddenRuleType[] {
  return FLOORS.flatMap((rooms, floor) =>
    rooms.flatMap((room) => {
      const below = FLOORS.slice(0, floor).flat();
      return [
        ...rule(
          `${room.name}-up`,
          `${room.name} (floor ${floor}) imports a floor above it`,
          room,
          FLOORS.slice(floor + 1).flat(),
        ),
        ...rule(
          `${room.name}-sideways`,
          `${room.name} imports a room of its own floor (${floor})`,
          room,
          rooms.filter((other) => other !== room),
        ),
        ...(room.only
          ? rule(
              `${room.name}-only`,
              `${room.name} may import only ${room.only.join(", ")}`,
              room,
              below.filter((other) => !room.only!.includes(other.name)),
            )
          : []),
      ];
    }),
  );
}

/** What dependency-cruiser reads: the rooms' folders, the root entry points, and the scripts. */
const CRUISED = ["lib", "app", "components", "proxy.ts", "instrumentation.ts", "scripts"];

const SCRIPTS_RULE = "scripts-no-vitest";

export const dependencyCruiserConfig: IConfiguration = {
  forbidden: [
    ...floorRules(),
    {
      // `npm run bench` once stopped at start: a test helper it imports had started importing vitest.
      name: SCRIPTS_RULE,
      comment: 'a script runs under tsx, outside vitest: "Vitest cannot be imported in a CommonJS module"',
      severity: "error",
      from: { path: "^scripts/" },
      to: { path: "^node_modules/vitest/", reachable: true },
    },
  ],
  options: {
    // The rooms' files, the scripts and the test helpers they import, and vitest: a package stands on no floor.
    includeOnly:
      "^(lib/|app/|components/|proxy\\.ts$|instrumentation\\.ts$|scripts/|tests/support/|node_modules/vitest/)",
    // A bare Next.js app of its own, which the bench and Lighthouse measure against.
    exclude: "^scripts/framework-floor/",
    doNotFollow: "^node_modules/",
    // `@/` is tsconfig's path alias.
    tsConfig: { fileName: "tsconfig.json" },
    // A type-only import ties the rooms as much as any other.
    tsPreCompilationDeps: true,
  },
};

/** dependency-cruiser's reading of the imports, checked against the rules; `baseDir` holds a tsconfig.json. */
export async function cruiseRooms(baseDir = ROOT): Promise<ICruiseResult> {
  const { cruise } = await import("dependency-cruiser");
  const { default: extractTSConfig } = await import("dependency-cruiser/config-utl/extract-ts-config");
  const tsConfig = path.join(baseDir, "tsconfig.json");
  const { output } = await cruise(
    CRUISED,
    {
      ...dependencyCruiserConfig.options,
      baseDir,
      tsConfig: { fileName: tsConfig },
      validate: true,
      ruleSet: { forbidden: dependencyCruiserConfig.forbidden },
    },
    {},
    { tsConfig: extractTSConfig(tsConfig) },
  );
  return output as ICruiseResult;
}

/** Each import that breaks a rule: the file, the file it imports (and through which, when far), and why. */
function violations(result: ICruiseResult, scripts: boolean): string[] {
  const why = new Map(dependencyCruiserConfig.forbidden!.map((forbidden) => [forbidden.name, forbidden.comment]));
  return result.summary.violations
    .filter((violation) => (violation.rule.name === SCRIPTS_RULE) === scripts)
    .map((violation) => {
      const via = violation.via?.map((step) => step.name).join(" → ");
      return `${violation.from} imports ${violation.to}${via ? ` (through ${via})` : ""}: ${why.get(violation.rule.name)}`;
    });
}

/** Each import that runs up a floor or sideways. */
export const floorViolations = (result: ICruiseResult) => violations(result, false);

/** Each script that imports vitest, itself or through the test helpers it imports. */
export const scriptViolations = (result: ICruiseResult) => violations(result, true);

/** The room-level import graph: which room imports which. */
function roomGraph(result: ICruiseResult): Array<[string, string]> {
  const pairs = new Set<string>();
  for (const cruised of result.modules) {
    for (const dependency of cruised.dependencies) {
      const from = roomOf(cruised.source);
      const to = roomOf(dependency.resolved);
      if (from !== null && to !== null && from !== to) pairs.add(`${from} ${to}`);
    }
  }
  return [...pairs].sort().map((pair) => pair.split(" ") as [string, string]);
}

/** The diagram for docs/architecture.md: the floors top down, and every room-to-room import found in the code. */
export function mermaid(result: ICruiseResult): string {
  const lines = ["```mermaid", "flowchart TB"];
  for (let floor = TOP_FLOOR; floor >= 0; floor -= 1) {
    lines.push(`  subgraph floor${floor}["floor ${floor}"]`);
    for (const room of FLOORS[floor]!) lines.push(`    ${room.name}["${room.name}<br/><small>${room.what}</small>"]`);
    lines.push("  end");
  }
  for (const [from, to] of roomGraph(result)) lines.push(`  ${from} --> ${to}`);
  lines.push("```");
  return lines.join("\n");
}

if (require.main === module) {
  void cruiseRooms().then((result) => process.stdout.write(`${mermaid(result)}\n`));
}
