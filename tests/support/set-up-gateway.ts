// The usual set-up of an HTTP test file in one line: a canary sandbox (./sandbox.ts), the built portal on it
// (./gateway.ts) with the file's own environment, a client signed in with the role the file needs, and all of it
// stopped after the file's tests. Kept apart from ./gateway.ts, which the benchmark scripts import outside vitest.
//
//   const { sandbox, gateway, client: admin } = setUpGateway({ signIn: "admin" });
//   const { gateway, clients: { support, admin } } = setUpGateway({ signIn: ["support", "admin"] });
//   const { idp, gateway } = setUpGateway({ sso: { refreshTokens: false } });    // single sign-on, no sandbox
//   const { gateway, restart } = setUpGateway({ store: "postgres", signIn: "admin" });
//
// Called inside a describe, it sets up for that describe's tests only (a describe.each over bothServerStores()
// passes its store as `store`).
//
// They are usable once vitest has run the file's beforeAll; touched earlier (at the file's top level), they
// throw and say so.
import { afterAll, beforeAll } from "vitest";

import type { Role } from "@/lib/contract/values";
import type { SandboxOptions } from "@/lib/sandbox";

import { sandboxEnv, startGateway, type GatewayProcess, type SignedInClient } from "./gateway";
import { ssoEnv, startTestProvider, type TestProvider, type TestProviderOptions } from "./oidc-provider";
import { startTestPostgres, type TestPostgres } from "./postgres";
import { late } from "./late";
import { freePort } from "./processes";
import { startCanarySandbox, type TestSandbox } from "./sandbox";
import type { ServerStore } from "./store-backends";

type Env = Record<string, string | undefined>;

export interface GatewayOptions<R extends Role = Role> {
  /**
   * The role of `client`, or several roles, each signed in (at once) as a client in `clients`, the first also
   * `client`; without it, no client is signed in and `client` throws when used.
   */
  signIn?: R | readonly R[];
  /**
   * Added to `sandboxEnv`'s environment (`ssoEnv`'s with `sso`); a function when it needs the sandbox (a URL, a
   * key of its).
   */
  env?: Env | ((sandbox: TestSandbox) => Env | Promise<Env>);
  /**
   * The store: a temporary SQLite file by default (gone with the gateway); "postgres", a database of a
   * PostgreSQL cluster started for these tests; or one of bothServerStores(). A named store outlives `restart`.
   */
  store?: "sqlite" | "postgres" | ServerStore;
  /**
   * Single sign-on: the test OpenID provider (./oidc-provider.ts) started in this process with these options,
   * the portal's callback and login page registered at it, and the portal on `ssoEnv` for it instead of on a
   * sandbox (`sandbox` throws). `signIn` still signs in local accounts; a test walks the provider's sign-in
   * itself (walkSsoSignIn).
   */
  sso?: true | Omit<TestProviderOptions, "redirectUris" | "postLogoutRedirectUris" | "port">;
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
  /** The OpenID provider (with `sso` only). */
  idp: TestProvider;
  /**
   * Stops the gateway and starts another on the same store and port with `env` added to the first one's (a
   * variable set to undefined is removed), signing the clients in again: what the next process finds. Needs a
   * named store (`store`, or DATABASE_URL in `env`). `whileStopped` runs between the two (a command on the store).
   */
  restart(env?: Env, whileStopped?: () => Promise<void>): Promise<void>;
}

export function setUpGateway<const R extends Role = never>(options: GatewayOptions<R> = {}): GatewayHarness<R> {
  const roles: readonly R[] = typeof options.signIn === "string" ? [options.signIn] : (options.signIn ?? []);
  // The clients in the order of `roles`; `env` and `port`, what the gateway was started with (for `restart`).
  let started: {
    sandbox?: TestSandbox;
    idp?: TestProvider;
    postgres?: TestPostgres;
    gateway?: GatewayProcess;
    clients?: SignedInClient[];
    env?: Env;
    port?: number;
  } = {};
  async function start(env: Env, port: number) {
    const gateway = await startGateway(env, { port });
    Object.assign(started, { gateway, env, port });
    started.clients = await Promise.all(roles.map((role) => gateway.signIn(role)));
  }
  // The start under way: a beforeAll that times out leaves it running, and the afterAll waits for it to settle so
  // that what it started is stopped, not left behind.
  let starting: Promise<void> | undefined;
  beforeAll(() => (starting = startAll()), options.startTimeoutMs);
  async function startAll() {
    // The provider must know the portal's callback before the portal starts: the port is chosen first.
    const port = await freePort();
    const storeEnv = await storeEnvFor(options.store, started);
    if (options.sso) {
      const portal = `http://127.0.0.1:${port}`;
      const idp = await startTestProvider({
        ...(options.sso === true ? {} : options.sso),
        redirectUris: [`${portal}/api/auth/oidc/callback`],
        postLogoutRedirectUris: [`${portal}/login`],
      });
      started.idp = idp;
      if (typeof options.env === "function") throw new Error("setUpGateway: with sso there is no sandbox for env");
      await start(ssoEnv(idp, { ...storeEnv, ...options.env }), port);
      return;
    }
    const sandbox = await startCanarySandbox(options.sandbox);
    started.sandbox = sandbox;
    const extra = typeof options.env === "function" ? await options.env(sandbox) : options.env;
    const env = sandboxEnv(sandbox, { ...storeEnv, ...extra });
    // freePort's port was free when asked, not necessarily when next start binds it: another file's process may
    // take it in between (EADDRINUSE once in CI, three files at a time). Then another port is asked for.
    for (let attempt = 1; ; attempt++) {
      try {
        await start(env, attempt === 1 ? port : await freePort());
        return;
      } catch (error) {
        if (attempt >= 3 || !String(error).includes("EADDRINUSE")) throw error;
      }
    }
  }
  afterAll(async () => {
    await starting?.catch(() => undefined);
    if (options.assertNoKeyLeaked) started.gateway?.assertNoKeyLeaked();
    await started.gateway?.stop();
    await started.idp?.close();
    await started.sandbox?.close();
    await started.postgres?.stop();
    started = {};
  });
  return {
    sandbox: late(
      () => started.sandbox,
      options.sso ? "setUpGateway: the sandbox (there is none with sso)" : "setUpGateway: the sandbox",
    ),
    gateway: late(() => started.gateway, "setUpGateway: the gateway"),
    client: late(
      () => started.clients?.[0],
      roles.length ? "setUpGateway: the client" : "setUpGateway: the client (no signIn was asked for)",
    ),
    clients: Object.fromEntries(
      roles.map((role, i) => [role, late(() => started.clients?.[i], `setUpGateway: the ${role}'s client`)]),
    ) as Record<R, SignedInClient>,
    idp: late(
      () => started.idp,
      options.sso ? "setUpGateway: the OpenID provider" : "setUpGateway: the OpenID provider (no sso was asked for)",
    ),
    async restart(env = {}, whileStopped) {
      const { gateway, env: before, port } = started;
      if (!gateway || !before || port === undefined) throw new Error("setUpGateway: restart before the start");
      if (!before.DATABASE_URL) throw new Error("setUpGateway: restart needs a named store (its own would be gone)");
      await gateway.stop();
      started.gateway = undefined;
      await whileStopped?.();
      await start({ ...before, ...env }, port);
    },
  };
}

/** DATABASE_URL for the chosen store; nothing for the gateway's own temporary SQLite file. */
async function storeEnvFor(store: GatewayOptions["store"], started: { postgres?: TestPostgres }): Promise<Env> {
  if (store === undefined || store === "sqlite") return {};
  if (store === "postgres") {
    started.postgres = await startTestPostgres();
    return { DATABASE_URL: await started.postgres.createDatabase() };
  }
  return { DATABASE_URL: await store.create() };
}
