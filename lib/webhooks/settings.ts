// The webhooks' settings from the accounts configuration: whether private targets are allowed, and the seal's key.
import "server-only";

import type { AuthConfig } from "@/lib/config/auth";

import type { WebhookSettings } from "./endpoints";

export function webhookSettings(config: AuthConfig): WebhookSettings {
  return { allowPrivate: config.webhookAllowPrivate, sealKey: config.dataKey };
}
