// The Standard Webhooks headers of one attempt, signed by the specification's own library (standardwebhooks):
// webhook-id (the delivery's, the same on every retry), webhook-timestamp (this attempt's), webhook-signature
// (v1,<HMAC-SHA256> per secret, space-separated: during a rotation's overlap both the new and the old secret sign).
import "server-only";

import { Webhook } from "standardwebhooks";

export function signedHeaders(
  id: string,
  payload: string,
  secrets: readonly string[],
  at = new Date(),
): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(id, at, payload));
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signatures.join(" "),
  };
}
