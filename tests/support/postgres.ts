// A throwaway PostgreSQL cluster for tests: initdb in a temp dir, a free port on 127.0.0.1, fsync off, trust
// auth; one fresh database per test. PostgreSQL refuses to run as root, so under root the server runs as the
// `postgres` system user (runuser). TEST_POSTGRES_URL points the tests at an existing server instead — which is
// how vitest runs them: its global setup (./postgres-global-setup.ts) starts one cluster for the whole run and
// names it there, so a file creates its databases on it (and drops them after) instead of starting a cluster of
// its own (initdb and a start cost about 1 s of CPU and 3 s of waiting, in 22 files).
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import pg from "pg";

export interface TestPostgres {
  /** Creates an empty database and returns its URL. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

function findBinDir(): string {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv && existsSync(path.join(fromEnv, "initdb"))) return fromEnv;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const dir = path.join(root, version, "bin");
    if (existsSync(path.join(dir, "initdb"))) return dir;
  }
  const which = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" });
  if (which.status === 0 && which.stdout.trim()) return path.dirname(which.stdout.trim());
  throw new Error(
    "PostgreSQL server binaries (initdb, pg_ctl) were not found: install the postgresql package, set PG_BIN to their folder, or set TEST_POSTGRES_URL to a server the tests may create databases on",
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

function numericId(name: string, flag: "-u" | "-g"): number {
  return Number(execFileSync("id", [flag, name], { encoding: "utf8" }).trim());
}

let databaseCounter = 0;

/**
 * `shared`: a server other files use too (TEST_POSTGRES_URL), where this file's databases are dropped when it
 * stops; a cluster of its own goes whole.
 */
function serverWithAdmin(adminUrl: string, stop: () => Promise<void>, shared = false): TestPostgres {
  const created: string[] = [];
  // One admin connection for the whole file: connecting costs more than creating a small database.
  let admin: Promise<pg.Client> | undefined;
  const connectAdmin = () => {
    admin ??= (async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      return client;
    })();
    return admin;
  };
  return {
    async createDatabase() {
      // Unique on a shared server: vitest runs several files in one process (one pid) one after another, each
      // with this module (and its counter) loaded afresh.
      const name = `gatehouse_test_${process.pid}_${++databaseCounter}_${randomBytes(4).toString("hex")}`;
      const client = await connectAdmin();
      await client.query(`CREATE DATABASE ${name}`);
      created.push(name);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async stop() {
      if (admin) {
        const client = await admin;
        // FORCE: a connection a stopped process left behind does not keep its database. A server that refuses
        // (FORCE needs PostgreSQL 13) keeps it: a leftover, not a failed test.
        if (shared)
          for (const name of created.splice(0))
            await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
        await client.end();
      }
      await stop();
    },
  };
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const existing = process.env.TEST_POSTGRES_URL;
  if (existing) return serverWithAdmin(existing, async () => {}, true);
  return startPostgresCluster();
}

/**
 * A cluster of its own. `maxConnections`: PostgreSQL's max_connections (its default, 100, is for one file's
 * servers; the cluster vitest shares among the files that run at once takes more).
 */
export async function startPostgresCluster({ maxConnections }: { maxConnections?: number } = {}): Promise<
  TestPostgres & { url: string }
> {
  const bin = findBinDir();
  const dir = mkdtempSync(path.join(tmpdir(), "gatehouse-pg-"));
  const dataDir = path.join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, numericId("postgres", "-u"), numericId("postgres", "-g"));
  const run = (tool: string, args: string[]) => {
    const [cmd, argv] = asRoot
      ? ["runuser", ["-u", "postgres", "--", path.join(bin, tool), ...args]]
      : [path.join(bin, tool), args];
    const result = spawnSync(cmd, argv as string[], { encoding: "utf8" });
    if (result.status !== 0) {
      const log = existsSync(path.join(dir, "log")) ? readFileSync(path.join(dir, "log"), "utf8").slice(-2000) : "";
      throw new Error(`${tool} failed (${result.status}): ${result.stderr || result.stdout}\n${log}`);
    }
  };

  const port = await freePort();
  const pgCtlStop = () => {
    if (existsSync(path.join(dataDir, "postmaster.pid"))) {
      try {
        run("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  // If the test process ends without afterAll (a crash, Ctrl-C), still stop the server.
  process.once("exit", pgCtlStop);

  try {
    run("initdb", ["-D", dataDir, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"]);
    const serverOptions = [
      `-p ${port}`,
      `-k ${dir}`,
      "-c listen_addresses=127.0.0.1",
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
      ...(maxConnections ? [`-c max_connections=${maxConnections}`] : []),
    ];
    run("pg_ctl", ["-D", dataDir, "-l", path.join(dir, "log"), "-w", "-o", serverOptions.join(" "), "start"]);
  } catch (error) {
    pgCtlStop();
    process.off("exit", pgCtlStop);
    throw error;
  }

  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const server = serverWithAdmin(url, async () => {
    pgCtlStop();
    process.off("exit", pgCtlStop);
  });
  return { ...server, url };
}
