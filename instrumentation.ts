// Runs once when the Next.js server starts, before it answers requests: validates the configuration (a bad
// one stops the start with a message naming the variable) and, in demo mode, starts the embedded sandbox.
export async function register(): Promise<void> {
  // The gateway lives in the Node.js runtime only; `next build` must not start a sandbox either.
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { startGateway } = await import("./lib/config");
  try {
    await startGateway();
  } catch (error) {
    const { ConfigError } = await import("./lib/config/env");
    if (error instanceof ConfigError) {
      // The message names each variable and what is wrong, never a key's value; no stack trace for a typo.
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
