// The rooms of the code and the floors they stand on, read from the code itself: which room each file belongs
// to, which rooms it imports, and whether an import runs up a floor (or sideways, into a room of the same
// floor). tests/unit/scripts/architecture.test.ts fails on such an import and on a stale diagram in
// docs/architecture.md; `npx tsx scripts/architecture.ts` prints the diagram (Mermaid) to paste there.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(__dirname, "..");

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
      paths: ["lib/brand.ts", "lib/process-wide.ts", "lib/read-capped.ts", "lib/seal.ts", "lib/net.ts"],
      what: "brands, process-wide state, capped reads, sealing small secrets at rest, IP ranges",
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
      what: "what happened, for webhooks: emitted here, stored by lib/webhooks",
    },
  ],
  [{ name: "config", paths: ["lib/config/"], what: "the environment, read once and checked" }],
  [
    { name: "db", paths: ["lib/db/"], what: "the store (SQLite, PostgreSQL)" },
    { name: "cluster", paths: ["lib/cluster/"], what: "what instances share: Redis, the bus between them" },
  ],
  [
    { name: "upstream", paths: ["lib/upstream/"], what: "the HTTP layer, policies, one client per area" },
    { name: "auth", paths: ["lib/auth/"], what: "sessions, users, roles, audit, the request edge" },
    { name: "jobs", paths: ["lib/jobs/"], what: "durable work on BullMQ, one queue per kind" },
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
const FLOOR_OF = new Map(FLOORS.flatMap((rooms, floor) => rooms.map((room) => [room.name, floor] as const)));
const ROOM_NAMED = new Map(ROOMS.map((room) => [room.name, room]));
const TOP_FLOOR = FLOORS.length - 1;

/** The room a repository path belongs to, or null (tests, scripts, configuration files). */
export function roomOf(file: string): string | null {
  for (const room of ROOMS) {
    if (room.paths.some((p) => (p.endsWith("/") ? file.startsWith(p) : file === p))) return room.name;
  }
  return null;
}

export interface ImportEdge {
  from: string;
  to: string;
  /** The import as written. */
  specifier: string;
}

const SOURCE = /\.(ts|tsx|mts)$/;
// import … from "x"; export … from "x"; import "x"; import("x")
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)"([^"]+)"/gm;
const EXTENSIONS = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(relative));
    else if (SOURCE.test(entry.name)) out.push(relative);
  }
  return out;
}

/** The repository path an import names, or null for a package. */
function resolve(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith(".")) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  else return null;
  for (const extension of EXTENSIONS) {
    const candidate = `${base}${extension}`;
    try {
      if (statSync(path.join(ROOT, candidate)).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return base;
}

/** Every import between files of the rooms, with the files' repository paths. */
export function imports(): ImportEdge[] {
  const files = [
    ...sourceFiles("lib"),
    ...sourceFiles("app"),
    ...sourceFiles("components"),
    "proxy.ts",
    "instrumentation.ts",
  ];
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(ROOT, file), "utf8");
    for (const match of text.matchAll(IMPORT)) {
      const target = resolve(file, match[1]!);
      if (target !== null) edges.push({ from: file, to: target, specifier: match[1]! });
    }
  }
  return edges;
}

/** Why an import breaks the floors, or null when it may stand. */
export function importProblem(edge: ImportEdge): string | null {
  const from = roomOf(edge.from);
  const to = roomOf(edge.to);
  if (from === null || to === null || from === to) return null;
  const fromFloor = FLOOR_OF.get(from)!;
  const toFloor = FLOOR_OF.get(to)!;
  const only = ROOM_NAMED.get(from)!.only;
  if (only && !only.includes(to)) return `${from} imports ${to}, but may import only ${only.join(", ")}`;
  if (toFloor > fromFloor) return `${from} (floor ${fromFloor}) imports ${to}, a floor above it (floor ${toFloor})`;
  if (toFloor === fromFloor) return `${from} imports ${to}, a room of its own floor (${fromFloor})`;
  return null;
}

/** The room-level import graph: which room imports which, from the code. */
export function roomGraph(edges: ImportEdge[] = imports()): Array<[string, string]> {
  const pairs = new Set<string>();
  for (const edge of edges) {
    const from = roomOf(edge.from);
    const to = roomOf(edge.to);
    if (from !== null && to !== null && from !== to) pairs.add(`${from} ${to}`);
  }
  return [...pairs].sort().map((pair) => pair.split(" ") as [string, string]);
}

/** The diagram for docs/architecture.md: the floors top down, and every room-to-room import found in the code. */
export function mermaid(edges: ImportEdge[] = imports()): string {
  const lines = ["```mermaid", "flowchart TB"];
  for (let floor = TOP_FLOOR; floor >= 0; floor -= 1) {
    lines.push(`  subgraph floor${floor}["floor ${floor}"]`);
    for (const room of FLOORS[floor]!) lines.push(`    ${room.name}["${room.name}<br/><small>${room.what}</small>"]`);
    lines.push("  end");
  }
  for (const [from, to] of roomGraph(edges)) lines.push(`  ${from} --> ${to}`);
  lines.push("```");
  return lines.join("\n");
}

if (require.main === module) {
  process.stdout.write(`${mermaid()}\n`);
}
