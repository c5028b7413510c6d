// The headers of an attempt verify with the Standard Webhooks reference library, with each signing secret.
import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";

import { generateSigningSecret } from "@/lib/webhooks/seal";
import { signedHeaders } from "@/lib/webhooks/sign";

describe("signedHeaders", () => {
  it("verify with the reference check, with either secret during a rotation", () => {
    const current = generateSigningSecret();
    const previous = generateSigningSecret();
    const payload = JSON.stringify({
      type: "report.deleted",
      timestamp: new Date().toISOString(),
      data: { report: { id: 5 } },
    });
    const headers = signedHeaders("msg_0123", payload, [current, previous]);
    expect(headers["webhook-id"]).toBe("msg_0123");
    expect(headers["webhook-signature"]!.split(" ").every((part) => part.startsWith("v1,"))).toBe(true);
    expect(() => new Webhook(current).verify(payload, headers)).not.toThrow();
    expect(() => new Webhook(previous).verify(payload, headers)).not.toThrow();
    expect(() => new Webhook(generateSigningSecret()).verify(payload, headers)).toThrow();
    expect(() => new Webhook(current).verify(`${payload} `, headers)).toThrow();
  });
});
