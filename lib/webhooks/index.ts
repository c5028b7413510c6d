// Webhooks in the server process: at start-up, events (lib/events) start going into the store as deliveries and
// the runner starts sending them, with whatever an earlier process left pending.
import "server-only";

import { getServerContext } from "@/lib/auth/access";
import { setEventSink } from "@/lib/events";
import { onShutdown } from "@/lib/lifecycle/shutdown";
import { processSlot, processWide } from "@/lib/process-wide";

import { enqueueEvent, type WebhookTimings } from "./deliveries";
import { WebhookRunner } from "./runner";
import { webhookSettings } from "./settings";

const RUNNER = "webhooks.runner";

/** The process's runner, started on first use (instrumentation at start, or a route that queued work). */
export async function webhookRunner(): Promise<WebhookRunner> {
  let runner = processSlot<WebhookRunner>(RUNNER).get();
  if (!runner) {
    const { config } = await getServerContext();
    runner = processWide(
      RUNNER,
      () =>
        new WebhookRunner({
          db: async () => (await getServerContext()).db,
          settings: () => webhookSettings(config),
          // Production never varies it; a test that cannot wait the real schedule puts a speed-up in this slot
          // before the server starts (injectIntoServer in tests/support/processes.ts).
          timings: processWide<WebhookTimings>("webhook-timings", () => ({ speedup: 1 })),
        }),
    );
    const started = runner;
    setEventSink(async (event) => {
      const queued = await enqueueEvent((await getServerContext()).db, event.type, event.data, event.occurredAt);
      if (queued > 0) started.kick();
    });
    onShutdown("webhook deliveries", () => started.stop());
    started.kick();
  }
  return runner;
}
