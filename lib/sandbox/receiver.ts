// The sandbox's webhook receiver (POST /__receiver), so that a webhook can be tried in `npm run demo` without a
// public address: it records each delivery it is sent and answers, in plain words, what it got — the portal's
// delivery log shows that answer. GET lists the latest deliveries, newest first. It does not verify signatures:
// it never sees the endpoint's secret; it says whether the delivery carried a Standard Webhooks signature.
import type { IncomingHttpHeaders } from "node:http";

const KEPT = 50;

export interface ReceivedWebhook {
  at: string;
  id: string | null;
  type: string | null;
  signed: boolean;
  bytes: number;
  body: string;
}

export interface ReceiverAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

const answer = (status: number, type: string, text: string): ReceiverAnswer => ({
  status,
  headers: { "content-type": type },
  body: Buffer.from(text),
});

function eventType(body: string): string | null {
  try {
    const parsed: unknown = JSON.parse(body);
    const type = (parsed as { type?: unknown } | null)?.type;
    return typeof type === "string" ? type : null;
  } catch {
    return null;
  }
}

export function createReceiver(now = () => new Date()) {
  const received: ReceivedWebhook[] = [];
  return {
    received,
    answer(method: string, headers: IncomingHttpHeaders, body: Buffer): ReceiverAnswer {
      if (method === "GET" || method === "HEAD") return answer(200, "application/json", JSON.stringify({ received }));
      if (method !== "POST") return answer(405, "text/plain; charset=utf-8", "POST a webhook here, or GET what came.");
      const text = body.toString("utf8");
      const id = typeof headers["webhook-id"] === "string" ? headers["webhook-id"] : null;
      const signature = headers["webhook-signature"];
      const delivery: ReceivedWebhook = {
        at: now().toISOString(),
        id,
        type: eventType(text),
        signed: typeof signature === "string" && /(^| )v1,/.test(signature),
        bytes: body.length,
        body: text,
      };
      received.unshift(delivery);
      received.length = Math.min(received.length, KEPT);
      const what = delivery.type ?? "a body that is not an event";
      return answer(
        200,
        "text/plain; charset=utf-8",
        `Received ${what} (${id ?? "no webhook-id"}), ${delivery.bytes} bytes, ${delivery.signed ? "signed" : "not signed"}.`,
      );
    },
  };
}
