// What the CLIs share about serving the portal. serveNext (the demo's) runs `next start` as a child and hands it
// the terminal; stopping this process (Ctrl-C, SIGTERM) stops it too. (`npm start` has no such parent: the process
// of ./start.mjs becomes the server.) The server runs in the caller's working directory: ./data (the store, the
// demo's folder) is relative to it. Node runs Next's CLI with ./server-preload.mjs loaded first: it guards the log
// streams and gives the HTTP server the timeouts of HTTP_*_TIMEOUT_MS, resolved by httpServerEnv (defaults filled
// in) and passed on in the same variables.
import { spawn } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { HTTP_SERVER_VARIABLES, parseHttpServerSettings } from "@/lib/config/http-server";

export const ROOT = path.resolve(__dirname, "..", "..");
/** The bare framework floor (scripts/framework-floor.ts) runs Next's own CLI; Gatehouse runs ./next-server.mjs. */
export const NEXT_BIN = path.join(ROOT, "node_modules", ".bin", "next");
/** `npm run build`: next build and the standalone output completed (./build.mjs). */
export const BUILD = path.join(__dirname, "build.mjs");
const SERVER = path.join(__dirname, "next-server.mjs");
const PRELOAD = pathToFileURL(path.join(__dirname, "server-preload.mjs")).href;

/** Why PORT is refused, or null. */
export function portProblem(port: string): string | null {
  return /^\d{1,5}$/.test(port) && Number(port) <= 65535 ? null : "must be a port number (1-65535)";
}

/** HTTP_*_TIMEOUT_MS as ./server-preload.mjs reads them: every one set, defaults filled in. */
export function httpServerEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  // A bad value was refused by the caller's check (npm start) or is by the server's own (the demo): defaults here.
  const { settings } = parseHttpServerSettings(env);
  return Object.fromEntries(
    Object.entries(HTTP_SERVER_VARIABLES).map(([field, name]) => [
      name,
      String(settings[field as keyof typeof settings]),
    ]),
  );
}

/** Node's arguments that run the production server (./next-server.mjs: the build's standalone output), preload first. */
export function serverArguments(host: string, port: string): string[] {
  return ["--import", PRELOAD, SERVER, host, port];
}

export function serveNext(host: string, port: string, env: NodeJS.ProcessEnv): void {
  const server = spawn(process.execPath, serverArguments(host, port), {
    stdio: "inherit",
    env: { ...env, ...httpServerEnv(env) },
  });
  // The child gets the signal from the terminal's process group as well; forwarding covers a lone `kill`.
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}
