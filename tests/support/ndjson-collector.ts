// An HTTP collector of NDJSON batches for tests (audit streaming's second destination): an HTTP server on a
// 127.0.0.1 port that records each POST (its headers and lines) and answers 204, or `answer` when a test sets it.
// stop() closes it, dropping open connections; start() listens again on the same port. Always `await collector.stop()`.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface CollectedBatch {
  contentType: string;
  authorization: string | null;
  lines: string[];
  status: number;
}

export interface NdjsonCollector {
  url: string;
  port: number;
  batches: CollectedBatch[];
  /** Every line of every batch answered 2xx, parsed. */
  accepted(): Array<Record<string, unknown>>;
  /** The status to answer the n-th batch (1-based); 204 unless set. */
  answer: (n: number) => number;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function startNdjsonCollector(): Promise<NdjsonCollector> {
  let server: Server | null = null;
  const collector: NdjsonCollector = {
    url: "",
    port: 0,
    batches: [],
    accepted: () =>
      collector.batches
        .filter((batch) => batch.status < 300)
        .flatMap((batch) => batch.lines.map((line) => JSON.parse(line) as Record<string, unknown>)),
    answer: () => 204,
    async start() {
      server = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on("data", (chunk: Buffer) => chunks.push(chunk));
        request.on("end", () => {
          const body = Buffer.concat(chunks).toString("utf8");
          const status = collector.answer(collector.batches.length + 1);
          collector.batches.push({
            contentType: String(request.headers["content-type"] ?? ""),
            authorization: request.headers.authorization ?? null,
            lines: body.split("\n").filter((line) => line !== ""),
            status,
          });
          response.writeHead(status).end();
        });
      });
      await new Promise<void>((resolve, reject) => {
        server!.once("error", reject);
        server!.listen(collector.port, "127.0.0.1", () => resolve());
      });
      collector.port = (server.address() as AddressInfo).port;
      collector.url = `http://127.0.0.1:${collector.port}/audit`;
    },
    async stop() {
      const closing = server;
      server = null;
      if (!closing) return;
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
  };
  await collector.start();
  return collector;
}
