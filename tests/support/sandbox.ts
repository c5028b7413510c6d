// Starts the sandbox for a test: an ephemeral port, a fresh temporary data dir, the control API on, no output.
// Always `await sandbox.close()` in afterAll/afterEach; it also removes the temporary data dir it created.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { startSandbox, type FaultSpec, type LoggedRequest, type Sandbox, type SandboxOptions } from "@/lib/sandbox";
import type { Purchase } from "@/lib/sandbox/seed";

import { CANARY } from "./canary";

export type { FaultSpec, LoggedRequest };

export interface TestSandbox extends Sandbox {
  injectFault(f: FaultSpec): Promise<string>; // POST /__sandbox/faults, returns the fault id
  clearFaults(): Promise<void>;
  /** PUT /__sandbox/faults: these faults instead of the ones there, in one step (no request falls between). */
  replaceFaults(faults: FaultSpec[]): Promise<string[]>;
  requests(): Promise<LoggedRequest[]>;
  clearRequests(): Promise<void>;
  reset(): Promise<void>; // reseed data, clear faults and log
  /** POST /__sandbox/reports/{id}/result: the report's next regeneration (or, with when "now", the report at once) gets this result. */
  setResult(
    id: number,
    spec: { result: "good" | "decent" | "bad"; generated_at?: string; when?: "next" | "now" },
  ): Promise<void>;
  /** POST /__sandbox/keys: accept a new key (issue it) or reject one (revoke it), as the upstream's dashboard would. */
  setKey(area: "reports" | "items", key: string, accept: boolean): Promise<void>;
  /**
   * POST /__sandbox/purchases/{code}: the marketplace reversed (refunded) the sale, or reinstated it; or its
   * supported_until moves (an ISO 8601 time, kept in UTC whole seconds) or goes (null: bought without support).
   * Answers the purchase as it now stands; throws for a code no seller sold or a change that is not valid.
   */
  setPurchase(
    code: string,
    change: { reversed?: boolean; supported_until?: string | null },
  ): Promise<{ purchase: Purchase; reversed: boolean }>;
}

/**
 * A sandbox that also accepts the canary keys (./canary.ts) that `sandboxEnv` (./gateway.ts) configures, so that
 * a test can look for them wherever a key must not be; `opts.extraKeys` are accepted beside them.
 */
export function startCanarySandbox(opts: Partial<SandboxOptions> = {}): Promise<TestSandbox> {
  const { reports = [], items = {} } = opts.extraKeys ?? {};
  return startTestSandbox({
    ...opts,
    extraKeys: { reports: [CANARY.reports, ...reports], items: { [CANARY.items]: "main", ...items } },
  });
}

export async function startTestSandbox(opts: Partial<SandboxOptions> = {}): Promise<TestSandbox> {
  // A caller that passes its own dataDir (e.g. to test a restart) keeps it; a temp dir we made is ours to remove.
  const ownDataDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? (await mkdtemp(path.join(tmpdir(), "gatehouse-sandbox-")));
  const sandbox = await startSandbox({ port: 0, quiet: true, control: true, ...opts, dataDir });

  async function control(method: string, route: string, body?: unknown): Promise<Response> {
    const res = await fetch(`${sandbox.url}/__sandbox${route}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`sandbox control ${method} ${route}: ${res.status} ${await res.text()}`);
    return res;
  }

  return {
    ...sandbox,
    async injectFault(fault) {
      const res = await control("POST", "/faults", fault);
      return ((await res.json()) as { id: string }).id;
    },
    async clearFaults() {
      await control("DELETE", "/faults");
    },
    async replaceFaults(faults) {
      const res = await control("PUT", "/faults", faults);
      return ((await res.json()) as { ids: string[] }).ids;
    },
    async requests() {
      const res = await control("GET", "/requests");
      return ((await res.json()) as { requests: LoggedRequest[] }).requests;
    },
    async clearRequests() {
      await control("DELETE", "/requests");
    },
    async reset() {
      await control("POST", "/reset");
    },
    async setResult(id, spec) {
      await control("POST", `/reports/${id}/result`, spec);
    },
    async setKey(area, key, accept) {
      await control("POST", "/keys", { area, key, accept });
    },
    async setPurchase(code, change) {
      const res = await control("POST", `/purchases/${encodeURIComponent(code)}`, change);
      return (await res.json()) as { purchase: Purchase; reversed: boolean };
    },
    async close() {
      await sandbox.close();
      if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
