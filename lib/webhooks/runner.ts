// Sends webhook deliveries in the server process, apart from any request. Everything it needs is in the store
// (./deliveries.ts is its whole queue interface): it claims due deliveries by lease, sends each signed attempt
// to the address it has just checked, records the outcome, and sleeps until the next one is due. A restarted
// process, or another instance, takes up whatever is pending; a killed one lets its leases run out.
import "server-only";

import { recordAudit } from "@/lib/auth/audit";
import type { Db } from "@/lib/db";
import { describeError, logEvent, runOutsideRequestContext } from "@/lib/log";

import {
  claimDueDeliveries,
  nextDueAt,
  recordAttempt,
  releaseDeliveries,
  type ClaimedDelivery,
  type WebhookTimings,
} from "./deliveries";
import { signingSecrets, type WebhookSettings } from "./endpoints";
import { signedHeaders } from "./sign";
import { resolveTarget, sendToTarget, DELIVERY_TIMEOUT_MS } from "./target";

/** A delivery is ours this long: more than one attempt's deadline, so a live sender never loses it. */
export const LEASE_MS = DELIVERY_TIMEOUT_MS * 3;
/** Deliveries sent at once by one process (at most MAX_SENDS_PER_ENDPOINT of them to one endpoint). */
const CONCURRENT_SENDS = 8;
/** Look for work this often at least (another instance may have queued some). */
const POLL_MS = 2_000;

export interface WebhookRunnerDeps {
  db: () => Promise<Db>;
  settings: () => WebhookSettings;
  timings: WebhookTimings;
}

export class WebhookRunner {
  readonly owner = `${process.pid}-${crypto.randomUUID()}`;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** Sends under way, and how many go to each endpoint: a slot freed is filled at once, never after a whole batch. */
  private readonly sends = new Set<Promise<void>>();
  private readonly sendingTo = new Map<string, number>();

  constructor(private readonly deps: WebhookRunnerDeps) {}

  /** Look for due deliveries now (an event was just queued, "Send again", or a send finished). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    runOutsideRequestContext(() => {
      this.running = this.pump().finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
    await Promise.all(this.sends);
    await releaseDeliveries(await this.deps.db(), this.owner).catch((error: unknown) =>
      logEvent("error", "webhook_release_failed", { error: describeError(error) }),
    );
  }

  private async pump(): Promise<void> {
    let wakeIn = POLL_MS;
    try {
      const db = await this.deps.db();
      while (!this.stopped && this.sends.size < CONCURRENT_SENDS) {
        const claimed = await claimDueDeliveries(
          db,
          this.owner,
          LEASE_MS,
          CONCURRENT_SENDS - this.sends.size,
          new Date(),
          this.sendingTo,
        );
        if (claimed.length === 0) break;
        for (const delivery of claimed) this.start(db, delivery);
      }
      // Sleep until the next retry is due. Work due already and not claimed waits for a slot (a finished send
      // kicks), another instance's lease or an endpoint's re-enabling: the poll covers those, with no busy loop.
      const next = await nextDueAt(db);
      const dueIn = next === null ? 0 : Date.parse(next) - Date.now();
      if (dueIn > 0) wakeIn = Math.min(POLL_MS, Math.max(20, dueIn));
    } catch (error) {
      logEvent("error", "webhook_runner_failed", { error: describeError(error) });
    }
    if (!this.stopped) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => this.kick(), wakeIn).unref();
    }
  }

  private start(db: Db, delivery: ClaimedDelivery): void {
    const endpoint = delivery.endpointId;
    this.sendingTo.set(endpoint, (this.sendingTo.get(endpoint) ?? 0) + 1);
    const send = this.send(db, delivery)
      .catch((error: unknown) =>
        logEvent("error", "webhook_attempt_not_recorded", {
          delivery: delivery.id,
          endpoint,
          error: describeError(error),
        }),
      )
      .finally(() => {
        const left = (this.sendingTo.get(endpoint) ?? 1) - 1;
        if (left === 0) this.sendingTo.delete(endpoint);
        else this.sendingTo.set(endpoint, left);
        this.sends.delete(send);
        this.kick();
      });
    this.sends.add(send);
  }

  private async send(db: Db, delivery: ClaimedDelivery): Promise<void> {
    const settings = this.deps.settings();
    const checked = await resolveTarget(delivery.url, settings);
    const secrets = await signingSecrets(db, delivery.endpointId, settings.sealKey);
    const attempt = !checked.ok
      ? { ok: false, status: null, durationMs: 0, error: `not sent: the URL ${checked.reason}`, excerpt: null }
      : secrets.length === 0
        ? {
            ok: false,
            status: null,
            durationMs: 0,
            error: "not sent: the signing secret cannot be read (PURCHASE_CODE_HASH_KEY changed); rotate the secret",
            excerpt: null,
          }
        : await sendToTarget(checked.target, signedHeaders(delivery.id, delivery.payload, secrets), delivery.payload);
    const { disabledEndpoint } = await recordAttempt(db, delivery, this.owner, attempt, this.deps.timings);
    logEvent(attempt.ok ? "info" : "warn", "webhook_attempt", {
      delivery: delivery.id,
      endpoint: delivery.endpointId,
      attempt: delivery.attempts + 1,
      ok: attempt.ok,
      status: attempt.status,
      error: attempt.error,
    });
    if (disabledEndpoint) {
      // The admins hear of it in the audit log and on the webhooks page (the endpoint's disabled_reason).
      logEvent("error", "webhook_endpoint_disabled", {
        endpoint: disabledEndpoint.id,
        failing_since: disabledEndpoint.failingSince,
      });
      await recordAudit(db, {
        userId: null,
        userEmail: null,
        action: "webhook.disabled",
        target: { type: "webhook", id: disabledEndpoint.id, label: disabledEndpoint.url },
        outcome: "failure",
        requestId: null,
        detail: { failing_since: disabledEndpoint.failingSince },
      }).catch((error: unknown) =>
        logEvent("error", "audit_write_failed", { action: "webhook.disabled", error: describeError(error) }),
      );
    }
  }
}
