// Runs `next start` as a child and hands it the terminal; stopping this process (Ctrl-C, SIGTERM) stops it too.
// The server runs in the caller's working directory: ./data (the store, the demo's folder) is relative to it.
import { spawn } from "node:child_process";
import path from "node:path";

export const ROOT = path.resolve(__dirname, "..", "..");
export const NEXT_BIN = path.join(ROOT, "node_modules", ".bin", "next");

/** Why PORT is refused, or null. */
export function portProblem(port: string): string | null {
  return /^\d{1,5}$/.test(port) && Number(port) <= 65535 ? null : "must be a port number (1-65535)";
}

export function serveNext(host: string, port: string, env: NodeJS.ProcessEnv): void {
  const server = spawn(NEXT_BIN, ["start", ROOT, "-H", host, "-p", port], { stdio: "inherit", env });
  // The child gets the signal from the terminal's process group as well; forwarding covers a lone `kill`.
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}
