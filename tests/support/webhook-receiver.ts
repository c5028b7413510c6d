// A webhook receiver for tests: an HTTP server on a free 127.0.0.1 port that verifies every delivery with the
// Standard Webhooks reference library (standardwebhooks), records it, and answers the status the test chooses for
// each attempt (say, 500 for the first three); with `verify: false`, a Slack or Teams webhook's stand-in. Always
// `await receiver.close()`.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

import { Webhook } from "standardwebhooks";

export interface ReceivedDelivery {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** The index in `secrets` of the first secret whose signature verified, or null when none did. */
  verifiedWith: number | null;
  /** What the receiver answered. */
  status: number;
}

export interface WebhookReceiver {
  url: string;
  /** The secrets to verify with (whsec_…); set once the endpoint exists. */
  secrets: string[];
  /** The status to answer to the n-th delivery (1-based); 204 unless set. */
  answer: (n: number, delivery: Omit<ReceivedDelivery, "status">) => number;
  received: ReceivedDelivery[];
  /** Resolves once `count` deliveries have arrived (or rejects after `timeoutMs`). */
  until(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

/**
 * `verify: false`: a receiver of payloads that are not Standard Webhooks (a Slack or Teams incoming webhook's):
 * every request is recorded and answered `answer`, none refused for its signature.
 */
export async function startWebhookReceiver({ verify = true }: { verify?: boolean } = {}): Promise<WebhookReceiver> {
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const receiver: Omit<WebhookReceiver, "url"> & { url: string } = {
    url: "",
    secrets: [],
    answer: () => 204,
    received: [],
    async until(count, timeoutMs = 30_000) {
      if (receiver.received.length < count) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(
            () => reject(new Error(`the receiver got ${receiver.received.length} of ${count} deliveries`)),
            timeoutMs,
          );
          waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
        });
      }
      return receiver.received.slice(0, count);
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const headers = {
        "webhook-id": String(request.headers["webhook-id"] ?? ""),
        "webhook-timestamp": String(request.headers["webhook-timestamp"] ?? ""),
        "webhook-signature": String(request.headers["webhook-signature"] ?? ""),
      };
      const verifiedWith = receiver.secrets.findIndex((secret) => {
        try {
          new Webhook(secret).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      });
      const delivery = {
        id: headers["webhook-id"],
        timestamp: headers["webhook-timestamp"],
        signature: headers["webhook-signature"],
        body,
        verifiedWith: verifiedWith === -1 ? null : verifiedWith,
      };
      const status = verify && verifiedWith === -1 ? 401 : receiver.answer(receiver.received.length + 1, delivery);
      receiver.received.push({ ...delivery, status });
      response
        .writeHead(status, { "Content-Type": "text/plain" })
        .end(status < 300 ? "thanks" : `receiver answered ${status}`);
      for (const waiter of waiters.filter((w) => receiver.received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
