// The usual set-up of an HTTP test file in one line: a canary sandbox (./sandbox.ts), the built portal on it
// (./gateway.ts) with the file's own environment, a client signed in with the role the file needs, and all of it
// stopped after the file's tests. Kept apart from ./gateway.ts, which the benchmark scripts import outside vitest.
//
//   const { sandbox, gateway, client: admin } = setUpGateway({ signIn: "admin" });
//   const { gateway, clients: { support, admin } } = setUpGateway({ signIn: ["support", "admin"] });
//
// They are usable once vitest has run the file's beforeAll; touched earlier (at the file's top level), they
// throw and say so.
import { afterAll, beforeAll } from "vitest";

import type { Role } from "@/lib/contract/values";
import type { SandboxOptions } from "@/lib/sandbox";

import { sandboxEnv, startGateway, type GatewayProcess, type SignedInClient } from "./gateway";
import { startCanarySandbox, type TestSandbox } from "./sandbox";

type Env = Record<string, string | undefined>;

export interface GatewayOptions<R extends Role = Role> {
  /**
   * The role of `client`, or several roles, each signed in (at once) as a client in `clients`, the first also
   * `client`; without it, no client is signed in and `client` throws when used.
   */
  signIn?: R | readonly R[];
  /** Added to `sandboxEnv`'s environment; a function when it needs the sandbox (a URL, a key of its). */
  env?: Env | ((sandbox: TestSandbox) => Env | Promise<Env>);
  /** The sandbox's own options (other keys, a data folder); the canary keys are always accepted. */
  sandbox?: Partial<SandboxOptions>;
  /** Also scan every response and output line for the canary keys after the file's tests. */
  assertNoKeyLeaked?: boolean;
  /** How long the start may take (vitest's hookTimeout otherwise). */
  startTimeoutMs?: number;
}

export interface GatewayHarness<R extends Role = Role> {
  sandbox: TestSandbox;
  gateway: GatewayProcess;
  client: SignedInClient;
  clients: Record<R, SignedInClient>;
}

export function setUpGateway<const R extends Role = never>(options: GatewayOptions<R> = {}): GatewayHarness<R> {
  const roles: readonly R[] = typeof options.signIn === "string" ? [options.signIn] : (options.signIn ?? []);
  // The clients in the order of `roles`.
  let started: { sandbox?: TestSandbox; gateway?: GatewayProcess; clients?: SignedInClient[] } = {};
  beforeAll(async () => {
    const sandbox = await startCanarySandbox(options.sandbox);
    started.sandbox = sandbox;
    const extra = typeof options.env === "function" ? await options.env(sandbox) : options.env;
    const gateway = await startGateway(sandboxEnv(sandbox, extra));
    started.gateway = gateway;
    started.clients = await Promise.all(roles.map((role) => gateway.signIn(role)));
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
    client: late(() => started.clients?.[0], roles.length ? "client" : "client (no signIn was asked for)"),
    clients: Object.fromEntries(
      roles.map((role, i) => [role, late(() => started.clients?.[i], `${role}'s client`)]),
    ) as Record<R, SignedInClient>,
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
