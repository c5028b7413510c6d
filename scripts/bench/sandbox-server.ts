// The sandbox for the benchmark, in a process of its own (so that it does not share an event loop with the
// load generator): quiet, control API on, a fresh data folder. Prints one JSON line with its URL, then serves
// until SIGTERM.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { startSandbox } from "@/lib/sandbox";

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "gatehouse-bench-sandbox-"));
  const sandbox = await startSandbox({ port: 0, quiet: true, control: true, dataDir });
  process.stdout.write(
    `${JSON.stringify({ url: sandbox.url, reportsBaseUrl: sandbox.reportsBaseUrl, itemsBaseUrl: sandbox.itemsBaseUrl })}\n`,
  );
  process.once("SIGTERM", () => {
    void sandbox
      .close()
      .then(() => rm(dataDir, { recursive: true, force: true }))
      .then(() => process.exit(0));
  });
}

void main();
