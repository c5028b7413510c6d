// The webhooks' settings from the accounts configuration: whether private targets are allowed (and, in the demo, its
// receiver), and the seal's key.
import "server-only";

import type { ServerConfig } from "@/lib/config/server";

import type { WebhookSettings } from "./endpoints";

export function webhookSettings(config: ServerConfig): WebhookSettings {
  return {
    allowPrivate: config.webhooks.allowPrivate,
    demoReceiver: config.webhooks.demoReceiverUrl,
    sealKey: config.dataKey,
  };
}
