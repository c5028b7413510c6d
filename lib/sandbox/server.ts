// The sandbox's HTTP server: reads and logs each request, applies injected faults, hands the request to its
// area, and serves the control API under /__sandbox. It tracks every socket and timer so close() ends them all.
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import path from "node:path";

import { z } from "zod";

import { dispatch, json, type Area, type Reply, type SandboxRequest } from "./area";
import { FaultBook, faultSpecSchema } from "./faults";
import {
  AREA_PREFIX,
  RECEIVER_PATH,
  SANDBOX_KEYS,
  type FaultSpec,
  type LoggedRequest,
  type Sandbox,
  type SandboxOptions,
  type SellerProfile,
} from "./contract";
import { createItemsArea, ItemsState, purchaseControlSchema, setPurchase } from "./items";
import { createReceiver } from "./receiver";
import {
  decodedSegment,
  isFormBody,
  keyCarried,
  MAX_BODY_BYTES,
  parseRequestTarget,
  readBody,
  toRecord,
  TOO_LARGE,
} from "./request";
import { createReportsArea, reportResultControlSchema, setReportResult } from "./reports";
import { BUILT_IN_ITEM_KEYS, DEFAULT_MAIN_SELLER_ITEMS } from "./seed";
import { ReportsStore } from "./store";

const MAX_LOGGED_REQUESTS = 10_000; // a long-running CLI with control on must not grow without bound
const CONTROL_PREFIX = "/__sandbox";
const DEFAULT_TRICKLE_BYTES_PER_SECOND = 64;

const optionsSchema = z.object({
  port: z.number().int().min(0).max(65_535).default(4010),
  host: z.string().min(1).default("127.0.0.1"),
  dataDir: z.string().min(1).default("./data/sandbox"),
  reset: z.boolean().default(false),
  control: z.boolean().default(false),
  quiet: z.boolean().default(false),
  mainSellerItems: z.number().int().min(1).max(100_000).default(DEFAULT_MAIN_SELLER_ITEMS),
  extraKeys: z
    .object({
      reports: z.array(z.string().min(1)).default([]),
      items: z.record(z.string().min(1), z.enum(["main", "second", "empty"])).default({}),
    })
    .default({ reports: [], items: {} }),
});

const keyChangeSchema = z.strictObject({
  area: z.enum(["reports", "items"]),
  key: z.string().min(1),
  /** true: the key is accepted from now on; false: it is rejected (401 for area A, "Invalid request" for B). */
  accept: z.boolean(),
  /** Area B: whose account a new key opens. */
  profile: z.enum(["main", "second", "empty"]).default("main"),
});

/** Bytes on the wire for one answer. */
interface Payload {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

function encode(reply: Reply): Payload {
  const body = reply.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(reply.body));
  const headers: Record<string, string> = reply.body === undefined ? {} : { "content-type": "application/json" };
  return { status: reply.status, headers: { ...headers, ...lowercaseKeys(reply.headers ?? {}) }, body };
}

function lowercaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const opts = optionsSchema.parse(options);
  const say = (message: string) => {
    if (!opts.quiet) console.log(`[sandbox] ${message}`);
  };
  const warn = (message: string) => {
    if (!opts.quiet) console.warn(`[sandbox] ${message}`);
  };

  const store = await ReportsStore.open(path.resolve(opts.dataDir), { reset: opts.reset, warn });
  // Both sets change at run time through the control API (POST /__sandbox/keys): a test revokes a key, as an
  // upstream's dashboard would, or issues a new one to rotate to.
  const itemKeys = new Map<string, SellerProfile>([
    ...Object.entries(BUILT_IN_ITEM_KEYS),
    [SANDBOX_KEYS.itemsNext, "main"],
    ...Object.entries(opts.extraKeys.items),
  ]);
  const reportKeys = new Set<string>([SANDBOX_KEYS.reports, SANDBOX_KEYS.reportsNext, ...opts.extraKeys.reports]);
  // Area B's data, in memory only: the control API reverses sales and moves support dates; reset reseeds it.
  const items = new ItemsState(opts.mainSellerItems);
  const areas: Area[] = [
    createReportsArea({ store, keys: reportKeys, prefix: AREA_PREFIX.reports }),
    createItemsArea({ state: items, keys: itemKeys, prefix: AREA_PREFIX.items }),
  ];
  const faults = new FaultBook();
  const receiver = createReceiver();
  let log: LoggedRequest[] = [];

  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let closing = false;

  function later(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });
  }

  function send(res: ServerResponse, payload: Payload): void {
    if (res.destroyed) return;
    res.writeHead(payload.status, { ...payload.headers, "content-length": String(payload.body.length) });
    res.end(payload.body);
  }

  /** A valid answer whose body leaves a few bytes at a time, so that a client's body timeout can be tested. */
  function trickle(res: ServerResponse, payload: Payload, bytesPerSecond: number): void {
    res.writeHead(payload.status, { ...payload.headers, "content-length": String(payload.body.length) });
    res.flushHeaders();
    const chunkBytes = Math.max(1, Math.round(bytesPerSecond / 20)); // about 20 writes a second
    let offset = 0;
    const timer = setInterval(
      () => {
        if (res.destroyed) return stop();
        const chunk = payload.body.subarray(offset, offset + chunkBytes);
        offset += chunk.length;
        if (offset >= payload.body.length) {
          stop();
          res.end(chunk);
        } else {
          res.write(chunk);
        }
      },
      (1000 * chunkBytes) / bytesPerSecond,
    );
    const stop = () => {
      clearInterval(timer);
      timers.delete(timer);
    };
    timers.add(timer);
    res.on("close", stop);
  }

  function areaOf(pathname: string): Area | undefined {
    return areas.find((area) => pathname === area.prefix || pathname.startsWith(`${area.prefix}/`));
  }

  function outsideAreas(req: IncomingMessage, pathname: string, baseUrl: string): Reply {
    if (pathname === "/" && (req.method === "GET" || req.method === "HEAD")) {
      return json(200, {
        name: "Gatehouse sandbox",
        reports: { baseUrl: `${baseUrl}${AREA_PREFIX.reports}`, key: SANDBOX_KEYS.reports },
        items: {
          baseUrl: `${baseUrl}${AREA_PREFIX.items}`,
          keys: [SANDBOX_KEYS.items, SANDBOX_KEYS.items2, SANDBOX_KEYS.itemsEmpty],
        },
        docs: "lib/sandbox/README.md",
      });
    }
    return json(404, {
      message: `Not found. The sandbox serves the reports API under ${AREA_PREFIX.reports} and the item API under ${AREA_PREFIX.items}.`,
    });
  }

  async function playFault(
    fault: FaultSpec,
    res: ServerResponse,
    area: Area | undefined,
    answer: () => Reply,
  ): Promise<void> {
    if (fault.latencyMs) await later(fault.latencyMs);
    if (closing || res.destroyed) return;
    switch (fault.kind) {
      case "latency":
        return send(res, encode(answer()));
      case "status": {
        const status = fault.status ?? 503;
        const reason = STATUS_CODES[status] ?? "Error";
        const custom = lowercaseKeys(fault.headers ?? {});
        if (typeof fault.body === "string") {
          return send(res, {
            status,
            headers: { "content-type": "text/plain; charset=utf-8", ...custom },
            body: Buffer.from(fault.body),
          });
        }
        return send(
          res,
          encode({
            status,
            body: fault.body ?? area?.errorBody(status, reason) ?? { message: reason },
            headers: custom,
          }),
        );
      }
      case "malformed": {
        const truncated =
          area?.prefix === AREA_PREFIX.items
            ? '{"status":"success","items":[{"id":100001,"name":"Invo'
            : '{"data":[{"id":1,"url":"https://northw';
        return send(res, {
          status: fault.status ?? 200,
          headers: { "content-type": "application/json" },
          body: Buffer.from(truncated),
        });
      }
      case "reset":
        res.socket?.resetAndDestroy();
        return;
      case "hang":
        return; // the socket stays open until the client gives up or close() destroys it
      case "trickle":
        return trickle(res, encode(answer()), fault.bytesPerSecond ?? DEFAULT_TRICKLE_BYTES_PER_SECOND);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const method = req.method ?? "GET";
    const url = parseRequestTarget(req.url ?? "/");
    if (!url) return send(res, encode(json(400, { message: "Bad request target." })));
    const hostHeader = req.headers.host;
    const origin = hostHeader && /^[\w.\-:[\]]+$/.test(hostHeader) ? `http://${hostHeader}` : sandboxUrl;

    if (url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`)) {
      if (opts.control) return handleControl(req, res, url.pathname);
    }

    const area = areaOf(url.pathname);
    let body: Buffer | null;
    try {
      const read = await readBody(req);
      body = read === TOO_LARGE ? null : read;
    } catch {
      return; // the client went away mid-body: nobody to answer
    }
    const form = body !== null && isFormBody(req) ? new URLSearchParams(body.toString("utf8")) : null;

    log.push({
      method,
      path: url.pathname,
      query: toRecord(url.searchParams),
      headers: Object.fromEntries(
        Object.entries(req.headers).map(([name, value]) => [
          name,
          Array.isArray(value) ? value.join(", ") : (value ?? ""),
        ]),
      ),
      form: form ? toRecord(form) : null,
      key: keyCarried(req, url.searchParams, form),
      at: new Date(started).toISOString(),
    });
    if (log.length > MAX_LOGGED_REQUESTS) log = log.slice(-MAX_LOGGED_REQUESTS);

    if (body === null) {
      const message = `The request body is larger than ${MAX_BODY_BYTES} bytes.`;
      send(
        res,
        encode({ status: 413, body: area?.errorBody(413, message) ?? { message }, headers: { connection: "close" } }),
      );
      res.on("finish", () => req.destroy());
      return;
    }
    if (url.pathname === RECEIVER_PATH) return send(res, receiver.answer(method, req.headers, body));

    const answer = (): Reply => {
      if (!area) return outsideAreas(req, url.pathname, origin);
      const sandboxRequest: SandboxRequest = {
        method: method === "HEAD" ? "GET" : method,
        path: url.pathname.slice(area.prefix.length) || "/",
        query: url.searchParams,
        form,
        headers: Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)])),
        baseUrl: `${origin}${area.prefix}`,
      };
      return dispatch(area, sandboxRequest);
    };

    const fault = faults.take(method, url.pathname);
    if (fault) {
      say(`${method} ${url.pathname} -> fault ${fault.kind}`);
      return playFault(fault, res, area, answer);
    }
    const reply = answer();
    send(res, encode(reply));
    say(`${method} ${url.pathname}${url.search} ${reply.status} ${Date.now() - started}ms`);
  }

  async function handleControl(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    const route = `${req.method} ${pathname.slice(CONTROL_PREFIX.length)}`;
    const fail = (status: number, error: string, extra: object = {}) =>
      send(res, encode(json(status, { error, ...extra })));
    /** The JSON body by `schema`; null once the 400 is sent ("The body must be {shape}." or `invalid` with the issues). */
    const body = async <S extends z.ZodType>(
      schema: S,
      shape: string,
      invalid: string,
    ): Promise<z.output<S> | null> => {
      let input: unknown;
      try {
        const read = await readBody(req);
        if (read === TOO_LARGE) throw new Error("too large");
        input = JSON.parse(read.toString("utf8"));
      } catch {
        fail(400, `The body must be ${shape}.`);
        return null;
      }
      const parsed = schema.safeParse(input);
      if (parsed.success) return parsed.data;
      fail(400, invalid, { issues: z.flattenError(parsed.error) });
      return null;
    };
    switch (route) {
      case "POST /faults": {
        const spec = await body(
          faultSpecSchema,
          "a JSON fault spec (see lib/sandbox/README.md)",
          "Invalid fault spec.",
        );
        if (!spec) return;
        return send(res, encode(json(201, { id: faults.add(spec) })));
      }
      case "PUT /faults": {
        const specs = await body(
          z.array(faultSpecSchema),
          "a JSON array of fault specs (see lib/sandbox/README.md)",
          "Invalid fault specs.",
        );
        if (!specs) return;
        return send(res, encode(json(200, { ids: faults.replace(specs) })));
      }
      case "GET /faults":
        return send(res, encode(json(200, { faults: faults.list() })));
      case "DELETE /faults":
        faults.clear();
        return send(res, encode(json(204)));
      case "POST /reset":
        store.reseed();
        items.reseed();
        await store.flush();
        faults.clear();
        log = [];
        return send(res, encode(json(204)));
      case "POST /keys": {
        const change = await body(
          keyChangeSchema,
          'JSON: {"area":"reports"|"items","key":"…","accept":true|false}',
          "Invalid key change.",
        );
        if (!change) return;
        const { area, key, accept, profile } = change;
        if (area === "reports") {
          if (accept) reportKeys.add(key);
          else reportKeys.delete(key);
        } else if (accept) {
          itemKeys.set(key, profile);
        } else {
          itemKeys.delete(key);
        }
        return send(res, encode(json(204)));
      }
      case "GET /requests":
        return send(res, encode(json(200, { requests: log })));
      case "DELETE /requests":
        log = [];
        return send(res, encode(json(204)));
      default: {
        const reportResult = /^POST \/reports\/(\d+)\/result$/.exec(route);
        if (reportResult) {
          const spec = await body(
            reportResultControlSchema,
            'JSON: {"result": "good"|"decent"|"bad", "generated_at"?, "when"?: "next"|"now"}',
            "Invalid result spec.",
          );
          if (!spec) return;
          const report = setReportResult(store, Number(reportResult[1]), spec);
          return report
            ? send(res, encode(json(200, { data: report })))
            : fail(404, `There is no report ${reportResult[1]}.`);
        }
        const purchaseChange = /^POST \/purchases\/([^/]+)$/.exec(route);
        if (purchaseChange) {
          const change = await body(
            purchaseControlSchema,
            'JSON: {"reversed"?: true|false, "supported_until"?: "<ISO 8601 time>"|null}',
            "Invalid purchase change.",
          );
          if (!change) return;
          const code = decodedSegment(purchaseChange[1]!);
          const changed = code === null ? null : setPurchase(items, code, change);
          // The code's last 4 characters only: a whole purchase code is never echoed back.
          return changed
            ? send(res, encode(json(200, changed)))
            : fail(
                404,
                `No seller sold the purchase code ending in "${purchaseChange[1]!.slice(-4)}": only a sale can be reversed or have its support date moved.`,
              );
        }
        return fail(404, `Unknown control route ${route}. See lib/sandbox/README.md, "Control API".`);
      }
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error("[sandbox] internal error", error);
      if (!res.headersSent) send(res, encode(json(500, { message: "Server Error" })));
      else res.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  // A client that misbehaves at the HTTP level gets a 400 and its socket closed, never a crash.
  server.on("clientError", (_error, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const sandboxUrl = `http://${opts.host.includes(":") ? `[${opts.host}]` : opts.host}:${port}`;

  let closed: Promise<void> | null = null;
  const close = () => {
    closed ??= (async () => {
      closing = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      await serverClosed;
      await store.flush();
    })();
    return closed;
  };

  return {
    url: sandboxUrl,
    reportsBaseUrl: `${sandboxUrl}${AREA_PREFIX.reports}`,
    itemsBaseUrl: `${sandboxUrl}${AREA_PREFIX.items}`,
    receiverUrl: `${sandboxUrl}${RECEIVER_PATH}`,
    close,
  };
}
