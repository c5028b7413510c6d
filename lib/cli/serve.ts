// Runs `next start` as a child and hands it the terminal; stopping this process (Ctrl-C, SIGTERM) stops it too.
import { spawn } from "node:child_process";
import path from "node:path";

export const ROOT = path.resolve(__dirname, "..", "..");
export const NEXT_BIN = path.join(ROOT, "node_modules", ".bin", "next");

export function portFromEnv(): string {
  const port = process.env.PORT ?? "3000";
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) {
    console.error(`PORT must be a port number (1-65535), got "${port}"`);
    process.exit(2);
  }
  return port;
}

export function serveNext(host: string, port: string, env: NodeJS.ProcessEnv): void {
  const server = spawn(NEXT_BIN, ["start", "-H", host, "-p", port], { cwd: ROOT, stdio: "inherit", env });
  // The child gets the signal from the terminal's process group as well; forwarding covers a lone `kill`.
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}
