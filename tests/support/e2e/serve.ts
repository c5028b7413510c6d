// The browser tests' servers, started by playwright.config.ts's webServer (see ./portal.ts): the sandbox on
// E2E_SANDBOX_PORT (4510) and the portal on E2E_PORT (4511). SIGTERM/SIGINT stop both and remove their files.
import { startPortal } from "./portal";
import { PORTAL_PORT, SANDBOX_PORT } from "./settings";

async function main(): Promise<void> {
  const portal = await startPortal({ port: PORTAL_PORT, sandboxPort: SANDBOX_PORT, quiet: false });
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
