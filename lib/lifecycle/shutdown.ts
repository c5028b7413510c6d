// Graceful shutdown of the Next.js server process. On SIGTERM (or SIGINT): stop accepting connections, let the
// requests in flight finish (at most SHUTDOWN_TIMEOUT_MS, default 10 s), close what was opened (the database,
// the demo sandbox), exit 0.
//
// Why not Next's own handler: `next start` also drains on SIGTERM, but then exits 143, with no bound on the drain
// and no hook to close our resources. So this replaces it. The HTTP server is created inside `next start` and
// never handed to the app; Node's diagnostics channel "http.server.request.start" reports every request with
// its server, which gives both the server to close and the count of requests in flight.
import "server-only";

import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage, Server, ServerResponse } from "node:http";

import { logEvent } from "@/lib/log";
import { processWide } from "@/lib/process-wide";

export interface ShutdownOptions {
  /** How long requests in flight may take to finish. */
  timeoutMs: number;
  /** Ends the process; replaced only by tests of this module. */
  exit?: (code: number) => void;
}

interface Closer {
  name: string;
  close: () => Promise<void> | void;
  /** Closed after every other closer (the store, which they may still write to). */
  last: boolean;
}

interface ShutdownState {
  options: ShutdownOptions | null;
  shuttingDown: boolean;
  servers: Set<Server>;
  inFlight: number;
  closers: Closer[];
  /** Called whenever a request ends while shutting down. */
  onRequestEnd: (() => void) | null;
}

/** A closer gets this long; a stuck one must not keep the process alive. */
const CLOSER_TIMEOUT_MS = 5000;

// One handler, one count, one list for every bundle.
function state(): ShutdownState {
  return processWide<ShutdownState>("lifecycle.shutdown", () => ({
    options: null,
    shuttingDown: false,
    servers: new Set(),
    inFlight: 0,
    closers: [],
    onRequestEnd: null,
  }));
}

interface RequestStart {
  request: IncomingMessage;
  response: ServerResponse;
  server: Server;
}

/**
 * Takes over SIGTERM and SIGINT for the server process. Call once at server start (instrumentation); further
 * calls do nothing. Handlers installed before (Next's own) are removed, so that only this one decides the exit.
 */
export function installGracefulShutdown(options: ShutdownOptions): void {
  const current = state();
  if (current.options) return;
  current.options = options;

  subscribe("http.server.request.start", (message) => {
    const { server, response } = message as RequestStart;
    current.servers.add(server);
    current.inFlight += 1;
    response.once("close", () => {
      current.inFlight -= 1;
      current.onRequestEnd?.();
    });
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
    process.on(signal, () => void shutDown(signal));
  }
}

/**
 * Registers something to close on shutdown, after the requests in flight have finished (e.g. the demo sandbox).
 * Closers run newest first; those registered `last` (the store) after all the others.
 */
export function onShutdown(
  name: string,
  close: () => Promise<void> | void,
  { last = false }: { last?: boolean } = {},
): void {
  state().closers.push({ name, close, last });
}

/** True once SIGTERM arrived: readiness answers "not ready" so that a load balancer stops sending traffic. */
export function isShuttingDown(): boolean {
  return state().shuttingDown;
}

/** The shutdown itself; exported for tests, which call it without a signal. */
export async function shutDown(reason: string): Promise<void> {
  const current = state();
  // Shells send SIGINT to the whole process group, and supervisors repeat SIGTERM: the first one counts.
  if (current.shuttingDown) return;
  current.shuttingDown = true;
  const timeoutMs = current.options?.timeoutMs ?? 10_000;
  const exit = current.options?.exit ?? ((code: number) => process.exit(code));
  const started = performance.now();

  logEvent(
    "info",
    `${reason}: shutting down; no new connections, ${current.inFlight} request(s) in flight may finish`,
    {
      event: "shutdown",
      in_flight: current.inFlight,
      timeout_ms: timeoutMs,
    },
  );
  for (const server of current.servers) {
    server.close();
    // Keep-alive connections with no request would otherwise hold the server open until they time out.
    server.closeIdleConnections();
  }

  const drained = await waitForRequests(current, timeoutMs);
  if (!drained) {
    logEvent("warn", `shutdown: ${current.inFlight} request(s) still running after ${timeoutMs} ms are cut off`, {
      event: "shutdown",
      in_flight: current.inFlight,
    });
  }

  const closed: string[] = [];
  const ordered = [...current.closers].reverse();
  for (const closer of [...ordered.filter((c) => !c.last), ...ordered.filter((c) => c.last)]) {
    try {
      await withTimeout(Promise.resolve(closer.close()), CLOSER_TIMEOUT_MS);
      closed.push(closer.name);
    } catch (error) {
      logEvent("error", `shutdown: closing the ${closer.name} failed`, { event: "shutdown", error: String(error) });
    }
  }
  logEvent("info", "shutdown complete", {
    event: "shutdown",
    closed,
    duration_ms: Math.round(performance.now() - started),
  });
  exit(0);
}

function waitForRequests(current: ShutdownState, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const finish = (drained: boolean) => {
      clearTimeout(timer);
      current.onRequestEnd = null;
      resolve(drained);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    current.onRequestEnd = () => {
      for (const server of current.servers) server.closeIdleConnections();
      if (current.inFlight <= 0) finish(true);
    };
    if (current.inFlight <= 0) finish(true);
  });
}

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
