// The usual set-up of an HTTP test file in one line: a canary sandbox (./sandbox.ts), the built portal on it
// (./gateway.ts) with the file's own environment, a client signed in with the role the file needs, and all of it
// stopped after the file's tests. Kept apart from ./gateway.ts, which the benchmark scripts import outside vitest.
//
//   const { sandbox, gateway, client: admin } = setUpGateway({ signIn: "admin" });
//
// The three are usable once vitest has run the file's beforeAll; touched earlier (at the file's top level), they
// throw and say so.
import { afterAll, beforeAll } from "vitest";

import type { Role } from "@/lib/contract/values";
import type { SandboxOptions } from "@/lib/sandbox";

import { sandboxEnv, startGateway, type GatewayProcess, type SignedInClient } from "./gateway";
import { startCanarySandbox, type TestSandbox } from "./sandbox";

type Env = Record<string, string | undefined>;

export interface GatewayOptions {
  /** The role of `client`; without it, `client` is not signed in and throws when used. */
  signIn?: Role;
  /** Added to `sandboxEnv`'s environment; a function when it needs the sandbox (a URL, a key of its). */
  env?: Env | ((sandbox: TestSandbox) => Env | Promise<Env>);
  /** The sandbox's own options (other keys, a data folder); the canary keys are always accepted. */
  sandbox?: Partial<SandboxOptions>;
  /** Also scan every response and output line for the canary keys after the file's tests. */
  assertNoKeyLeaked?: boolean;
  /** How long the start may take (vitest's hookTimeout otherwise). */
  startTimeoutMs?: number;
}

export interface GatewayHarness {
  sandbox: TestSandbox;
  gateway: GatewayProcess;
  client: SignedInClient;
}

export function setUpGateway(options: GatewayOptions = {}): GatewayHarness {
  let started: Partial<GatewayHarness> = {};
  beforeAll(async () => {
    const sandbox = await startCanarySandbox(options.sandbox);
    started.sandbox = sandbox;
    const extra = typeof options.env === "function" ? await options.env(sandbox) : options.env;
    started.gateway = await startGateway(sandboxEnv(sandbox, extra));
    if (options.signIn) started.client = await started.gateway.signIn(options.signIn);
  }, options.startTimeoutMs);
  afterAll(async () => {
    if (options.assertNoKeyLeaked) started.gateway?.assertNoKeyLeaked();
    await started.gateway?.stop();
    await started.sandbox?.close();
    started = {};
  });
  return {
    sandbox: late(() => started.sandbox, "sandbox"),
    gateway: late(() => started.gateway, "gateway"),
    client: late(() => started.client, options.signIn ? "client" : "client (no signIn was asked for)"),
  };
}

/** Stands for an object made later: each property read goes to it, methods bound to it. */
function late<T extends object>(current: () => T | undefined, name: string): T {
  const target = () => {
    const value = current();
    if (!value) throw new Error(`setUpGateway: the ${name} is not there (used outside the file's tests?)`);
    return value;
  };
  return new Proxy({} as T, {
    get(_, property) {
      const object = target();
      const value = Reflect.get(object, property) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
    set(_, property, value) {
      return Reflect.set(target(), property, value);
    },
    has(_, property) {
      return Reflect.has(target(), property);
    },
  });
}
