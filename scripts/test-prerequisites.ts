// The first step of `npm test`: what the tests need beyond node_modules — Debian's Chromium for the browser
// tests, PostgreSQL's server programs for the store's PostgreSQL suites, redis-server and nginx for the
// several-instances suite — installed with apt when missing (as root, or through sudo without a password), or
// else named with the command that installs them, exit 1. CHROMIUM_PATH, PG_BIN, TEST_POSTGRES_URL and
// TEST_REDIS_URL point the tests at what a machine already has instead.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface Probe {
  env: Record<string, string | undefined>;
  exists(file: string): boolean;
  /** Subfolders of a folder ([] when it does not exist). */
  list(folder: string): string[];
  /** Whether a command is on PATH. */
  onPath(command: string): boolean;
  isRoot: boolean;
  /** `sudo -n true` works: sudo without a password. */
  canSudo(): boolean;
}

export interface Need {
  what: string;
  /** The Debian package that provides it. */
  apt: string;
}

export type Plan =
  | { kind: "ready" }
  | { kind: "install"; needs: Need[]; command: string[] }
  | { kind: "cannot"; needs: Need[]; message: string };

function hasChromium(probe: Probe): boolean {
  return probe.exists(probe.env.CHROMIUM_PATH || "/usr/bin/chromium");
}

function hasPostgres(probe: Probe): boolean {
  if (probe.env.TEST_POSTGRES_URL) return true;
  if (probe.env.PG_BIN && probe.exists(path.join(probe.env.PG_BIN, "initdb"))) return true;
  const versions = probe.list("/usr/lib/postgresql");
  if (versions.some((version) => probe.exists(path.join("/usr/lib/postgresql", version, "bin", "initdb")))) return true;
  return probe.onPath("initdb");
}

function hasRedis(probe: Probe): boolean {
  if (probe.env.TEST_REDIS_URL) return true;
  return probe.exists("/usr/bin/redis-server") || probe.onPath("redis-server");
}

function hasNginx(probe: Probe): boolean {
  return probe.exists("/usr/sbin/nginx") || probe.exists("/usr/bin/nginx");
}

/** What is missing, and what to do about it. Pure: the machine is read through `probe`. */
export function planPrerequisites(probe: Probe): Plan {
  const needs: Need[] = [];
  if (!hasChromium(probe)) needs.push({ what: "Chromium (for the browser tests)", apt: "chromium" });
  if (!hasPostgres(probe))
    needs.push({ what: "PostgreSQL's server programs (for the PostgreSQL suites)", apt: "postgresql" });
  if (!hasRedis(probe)) needs.push({ what: "redis-server (for the several-instances suite)", apt: "redis-server" });
  if (!hasNginx(probe)) needs.push({ what: "nginx (the several-instances suite's load balancer)", apt: "nginx-light" });
  if (needs.length === 0) return { kind: "ready" };

  const packages = needs.map((need) => need.apt);
  const install = ["apt-get", "install", "-y", "--no-install-recommends", ...packages];
  if (probe.onPath("apt-get")) {
    if (probe.isRoot) return { kind: "install", needs, command: install };
    if (probe.onPath("sudo") && probe.canSudo()) return { kind: "install", needs, command: ["sudo", ...install] };
  }
  const list = needs.map((need) => need.what).join(" and ");
  const how = probe.onPath("apt-get")
    ? `install them with: sudo apt-get update && sudo apt-get install -y ${packages.join(" ")}`
    : `install ${packages.join(" and ")} with your system's package manager`;
  return {
    kind: "cannot",
    needs,
    message: `The tests need ${list}, which this machine lacks; ${how} (or set CHROMIUM_PATH to a Chromium, PG_BIN to PostgreSQL's bin folder, TEST_POSTGRES_URL to a server the tests may create databases on, or TEST_REDIS_URL to a Redis the tests may use).`,
  };
}

function machine(): Probe {
  const which = (command: string) => spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
  return {
    env: process.env,
    exists: existsSync,
    list: (folder) => (existsSync(folder) ? readdirSync(folder) : []),
    onPath: which,
    isRoot: process.getuid?.() === 0,
    canSudo: () => spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0,
  };
}

function run(command: string[]): void {
  console.log(`test prerequisites: ${command.join(" ")}`);
  const result = spawnSync(command[0]!, command.slice(1), {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (result.status !== 0) {
    console.error(`test prerequisites: "${command.join(" ")}" failed (exit ${result.status ?? result.signal}).`);
    process.exit(1);
  }
}

function main(): void {
  const plan = planPrerequisites(machine());
  if (plan.kind === "ready") return;
  if (plan.kind === "cannot") {
    console.error(`test prerequisites: ${plan.message}`);
    process.exit(1);
  }
  console.log(`test prerequisites: installing ${plan.needs.map((need) => need.what).join(" and ")}`);
  const sudo = plan.command[0] === "sudo" ? ["sudo"] : [];
  run([...sudo, "apt-get", "update", "-qq"]);
  run(plan.command);
  const after = planPrerequisites(machine());
  if (after.kind !== "ready") {
    console.error(
      `test prerequisites: still missing after the install: ${after.needs.map((need) => need.what).join(", ")}.`,
    );
    process.exit(1);
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
