// The server context request-time code (the API's route wrapper, pages) needs: the store and the server-side
// configuration, opened once per process, and the session settings that fit one request (https or not).
import "server-only";

import { getConfig, type Config } from "@/lib/config";
import { storeTarget } from "@/lib/config/store";
import { getDb, type Db } from "@/lib/db";

import { isHttps, type HeaderReader } from "./request";
import { sessionSettings, type SessionSettings } from "./session";

export interface ServerContext {
  db: Db;
  config: Config;
}

/** The store and the server-side configuration (both read once per process; instrumentation.ts reads them first). */
export async function getServerContext(): Promise<ServerContext> {
  const config = await getConfig();
  return { db: await getDb(storeTarget()), config };
}

/** Session settings for this request: over https the cookie is Secure and named __Host-gatehouse_session. */
export function sessionSettingsFor(config: Config, headers: HeaderReader): SessionSettings {
  return sessionSettings(config, { secure: isHttps(headers, config.edge) });
}
