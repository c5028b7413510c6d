// `npm run test:flaky`: the hunt for tests that pass only sometimes. Builds once, then runs the whole vitest
// suite several times and the Playwright suite with --repeat-each, while a busy loop keeps the machine's other
// cores occupied (the conditions a CI run on a loaded 2-core machine meets). No retries: a test that fails once
// is named, with the run it failed in and its first error line. Exits 1 when any test failed at all.
//
// Options: --vitest N (whole vitest runs, default 5), --playwright N (--repeat-each, default 3; 0 skips it),
// --busy N (busy-loop processes, default: cores − 1; 0 runs on an idle machine), --filter <text> (only vitest
// files and Playwright specs whose path contains it).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

const ROOT = path.resolve(__dirname, "..");
const BIN = (name: string) => path.join(ROOT, "node_modules", ".bin", name);

const { values } = parseArgs({
  options: {
    vitest: { type: "string", default: "5" },
    playwright: { type: "string", default: "3" },
    busy: { type: "string", default: String(Math.max(1, availableParallelism() - 1)) },
    filter: { type: "string" },
  },
});

function count(name: string, value: string | undefined): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 100) {
    console.error(`test:flaky: --${name} must be a whole number from 0 to 100, got "${value}"`);
    process.exit(2);
  }
  return n;
}

const VITEST_RUNS = count("vitest", values.vitest);
const PLAYWRIGHT_REPEATS = count("playwright", values.playwright);
const BUSY = count("busy", values.busy);
const FILTER = values.filter;

interface Failure {
  suite: "vitest" | "playwright";
  run: number;
  test: string;
  error: string;
}

/** Runs a command to completion with its output on this terminal; resolves with its exit code. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: "inherit", env });
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Busy loops that keep other cores occupied until stopped. */
function startBusyLoops(n: number): ChildProcess[] {
  return Array.from({ length: n }, () => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
}

const firstLine = (text: string | undefined) =>
  (text ?? "")
    .replace(/\u001b\[[0-9;]*m/g, "")
    .trim()
    .split("\n")[0]
    ?.slice(0, 300) ?? "";

interface VitestJson {
  testResults: Array<{
    name: string;
    assertionResults: Array<{ fullName: string; status: string; failureMessages: string[] }>;
    message?: string;
    status: string;
  }>;
}

function vitestFailures(file: string, runNumber: number): Failure[] {
  const report = JSON.parse(readFileSync(file, "utf8")) as VitestJson;
  const failures: Failure[] = [];
  for (const result of report.testResults) {
    const where = path.relative(ROOT, result.name);
    const failed = result.assertionResults.filter((a) => a.status === "failed");
    for (const a of failed)
      failures.push({
        suite: "vitest",
        run: runNumber,
        test: `${where} › ${a.fullName}`,
        error: firstLine(a.failureMessages[0]),
      });
    // A file that failed outside any test (a hook, an import).
    if (failed.length === 0 && result.status === "failed")
      failures.push({ suite: "vitest", run: runNumber, test: where, error: firstLine(result.message) });
  }
  return failures;
}

interface PlaywrightSuite {
  title: string;
  file: string;
  // With --repeat-each, each repetition is one entry of `tests`; `results` holds its tries.
  specs: Array<{ title: string; tests: Array<{ results: Array<{ status: string; error?: { message?: string } }> }> }>;
  suites?: PlaywrightSuite[];
}

function playwrightFailures(file: string): Failure[] {
  const report = JSON.parse(readFileSync(file, "utf8")) as {
    suites: PlaywrightSuite[];
    errors?: Array<{ message?: string }>;
  };
  const failures: Failure[] = (report.errors ?? []).map((e) => ({
    suite: "playwright" as const,
    run: 1,
    test: "(global)",
    error: firstLine(e.message),
  }));
  const walk = (suite: PlaywrightSuite, titles: string[]) => {
    for (const spec of suite.specs) {
      spec.tests.forEach((test, repetition) => {
        for (const result of test.results) {
          if (result.status !== "passed" && result.status !== "skipped") {
            failures.push({
              suite: "playwright",
              run: repetition + 1,
              test: [suite.file, ...titles, spec.title].filter(Boolean).join(" › "),
              error: firstLine(result.error?.message),
            });
          }
        }
      });
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of report.suites) walk(suite, []);
  return failures;
}

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), "gatehouse-flaky-"));
  const failures: Failure[] = [];
  const started = Date.now();
  const build = spawnSync(BIN("tsx"), [path.join("tests", "support", "build.ts")], { cwd: ROOT, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);

  const busy = startBusyLoops(BUSY);
  const stopBusy = () => busy.forEach((child) => child.kill("SIGKILL"));
  process.once("exit", stopBusy);
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));
  console.log(
    `test:flaky: ${VITEST_RUNS} vitest run(s), Playwright --repeat-each=${PLAYWRIGHT_REPEATS}, ${BUSY} busy core(s)`,
  );

  const runs: string[] = [];
  for (let i = 1; i <= VITEST_RUNS; i++) {
    const report = path.join(work, `vitest-${i}.json`);
    const t0 = Date.now();
    await run(BIN("vitest"), [
      "run",
      "--reporter=dot",
      "--reporter=json",
      `--outputFile.json=${report}`,
      ...(FILTER ? [FILTER] : []),
    ]);
    const found = vitestFailures(report, i);
    failures.push(...found);
    runs.push(
      `vitest run ${i}: ${found.length === 0 ? "no failure" : `${found.length} failed`} (${Math.round((Date.now() - t0) / 1000)} s)`,
    );
    console.log(runs.at(-1));
  }

  if (PLAYWRIGHT_REPEATS > 0) {
    const report = path.join(work, "playwright.json");
    const t0 = Date.now();
    await run(
      BIN("playwright"),
      [
        "test",
        `--repeat-each=${PLAYWRIGHT_REPEATS}`,
        "--retries=0",
        "--reporter=dot,json",
        ...(FILTER ? [FILTER] : []),
      ],
      {
        ...process.env,
        PLAYWRIGHT_JSON_OUTPUT_FILE: report,
      },
    );
    const found = playwrightFailures(report);
    failures.push(...found);
    runs.push(
      `playwright --repeat-each=${PLAYWRIGHT_REPEATS}: ${found.length === 0 ? "no failure" : `${found.length} failed`} (${Math.round((Date.now() - t0) / 1000)} s)`,
    );
  }
  stopBusy();
  rmSync(work, { recursive: true, force: true });

  console.log(`\ntest:flaky, ${Math.round((Date.now() - started) / 60_000)} min with ${BUSY} busy core(s):`);
  for (const line of runs) console.log(`  ${line}`);
  if (failures.length === 0) {
    console.log("No test failed in any run.");
    return;
  }
  console.log("\nFailed (run: test — first line of the error):");
  for (const f of failures) console.log(`  ${f.suite} #${f.run}: ${f.test}\n      ${f.error}`);
  process.exitCode = 1;
}

void main();
