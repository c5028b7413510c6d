// Loaded into the Next.js server process before Next itself (by lib/cli/start.mjs for `npm start`, and with
// `node --import` by lib/cli/serve.ts for the demo), for the two things that must be in place before Next writes
// its first line or creates its HTTP server, which it never hands to the app. Plain JavaScript: it runs before any
// loader or bundle.
import http from "node:http";

// 1. Log streams whose reader is gone (`npm start | head`, a log shipper that died). Unwatched, a write to such a
// pipe raises EPIPE as an uncaught exception, which Next prints to stderr, which fails again: a loop at 100 % CPU
// that starves every request. A stream that fails once is dropped for good (writes to it cost nothing), and the
// other stream, if it still works, says so once.
const lost = new Set();

function logStreamLost(stream, name, other, error) {
  if (lost.has(stream)) return;
  lost.add(stream);
  stream.write = (_chunk, encoding, callback) => {
    const done = typeof encoding === "function" ? encoding : callback;
    if (typeof done === "function") process.nextTick(done);
    return true;
  };
  if (lost.has(other)) return;
  const line = {
    time: new Date().toISOString(),
    level: "error",
    msg: `${name} is closed (${error.code ?? error.message}): the server's log lines written there are lost from now on; it keeps serving.`,
    event: "log_stream_lost",
    stream: name,
  };
  other.write(`${JSON.stringify(line)}\n`);
}

process.stdout.on("error", (error) => logStreamLost(process.stdout, "stdout", process.stderr, error));
process.stderr.on("error", (error) => logStreamLost(process.stderr, "stderr", process.stdout, error));

// 2. How long the HTTP server waits for a slow client: the values of HTTP_*_TIMEOUT_MS that httpServerEnv
// (lib/cli/serve.ts) resolved (checked, defaults filled in, by lib/config/env.ts). Next creates its one server with
// http.createServer and no options, and Node reads these only when a server is created (the check of slow
// connections runs on a timer fixed then, every 30 s by default): so they are passed to that call.
const milliseconds = (name) => (process.env[name] ? Number(process.env[name]) : null);
const headersTimeout = milliseconds("HTTP_HEADERS_TIMEOUT_MS");
const requestTimeout = milliseconds("HTTP_REQUEST_TIMEOUT_MS");
const keepAliveTimeout = milliseconds("HTTP_KEEP_ALIVE_TIMEOUT_MS");

if (headersTimeout !== null && requestTimeout !== null && keepAliveTimeout !== null) {
  // Checked every second, so that a client is cut off within a second of its time, not up to 30 s later.
  const limits = { headersTimeout, requestTimeout, keepAliveTimeout, connectionsCheckingInterval: 1000 };
  const createServer = http.createServer;
  http.createServer = function createServerWithLimits(options, listener) {
    if (typeof options === "function" || options === undefined) return createServer.call(this, limits, options);
    return createServer.call(this, { ...limits, ...options }, listener);
  };
}
