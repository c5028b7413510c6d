// `npm start`: `next start` on HOST (default 0.0.0.0) and PORT (default 3000). In demo mode (no upstream
// configured in the environment or the .env files) the default host is 127.0.0.1: the demo accounts and keys
// are public, so a demo portal must not be reachable from other machines unless HOST says so.
import { loadEnvConfig } from "@next/env";

import { isDemoMode } from "@/lib/config";

import { portFromEnv, ROOT, serveNext } from "./serve";

loadEnvConfig(ROOT, false);
const demo = isDemoMode(process.env);
const host = process.env.HOST || (demo ? "127.0.0.1" : "0.0.0.0");
serveNext(host, portFromEnv(), { ...process.env, NODE_ENV: "production" });
