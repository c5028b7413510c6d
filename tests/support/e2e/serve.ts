// The browser tests' servers of one worker, started by playwright.config.ts's webServer (see ./portal.ts and
// ./settings.ts): `serve.ts <worker index>` starts that worker's sandbox (E2E_SANDBOX_PORT + 2 × index, from
// 4510) and portal (E2E_PORT + 2 × index, from 4511). SIGTERM/SIGINT stop both and remove their files.
import { startPortal } from "./portal";
import { E2E_WORKERS, serversOf } from "./settings";

async function main(): Promise<void> {
  const index = Number(process.argv[2] ?? 0);
  if (!Number.isInteger(index) || index < 0 || index >= E2E_WORKERS)
    throw new Error(
      `serve.ts takes a worker index from 0 to ${E2E_WORKERS - 1} (E2E_WORKERS), not "${process.argv[2]}"`,
    );
  const { portalPort, sandboxPort } = serversOf(index);
  const portal = await startPortal({ port: portalPort, sandboxPort, quiet: false });
  let stopping = false;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    void portal.stop().then(() => process.exit(code));
  };
  void portal.exited.then((code) => {
    if (!stopping) console.error(`next start exited (${code ?? "signal"})`);
    stop(code ?? 1);
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop(0));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
