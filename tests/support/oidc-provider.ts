// A real OpenID provider for the tests: oidc-provider (the certified OpenID Connect server for Node.js) in this
// process, on a loopback port, with its own login and consent pages and two test users in two groups — one in
// the portal's admin group, one in a group the portal maps to nothing. Tests change a user's groups, disable him,
// take the provider down and bring it back on the same port, make it hostile (an ID token re-signed for another
// audience), rotate its signing key, count the discovery documents it served, and walk its pages over HTTP
// (`SignInBrowser`) or in Chromium. With `claimsInIdToken: false` and refresh tokens (the default) it is a provider
// that keeps groups out of every ID token, refreshed ones included (oidc-provider's default, some Okta and Authentik
// set-ups): a relying party finds them at the userinfo endpoint only.
import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";

import type { Configuration, KoaContextWithOIDC } from "oidc-provider";

import { CANARY } from "./canary";
import { freePort } from "./processes";

export interface TestIdpUser {
  /** The provider's stable id for him (the `sub` claim); Gatehouse matches users by it. */
  sub: string;
  /** What he types on the provider's sign-in page. */
  login: string;
  password: string;
  email: string;
  name: string;
  groups: string[];
  /** Disabled at the provider: he cannot sign in, and his refresh tokens are refused. */
  disabled?: boolean;
  /** More claims (a nested role claim such as Keycloak's realm_access). */
  extra?: Record<string, unknown>;
}

/** The group the tests map to the admin role, and one the portal maps to nothing. */
export const ADMIN_GROUP = "portal-admins";
export const UNMAPPED_GROUP = "contractors";

export const IDP_USERS = {
  /** In the admin group (and an unmapped one: the highest mapped role wins). */
  admin: {
    sub: "b7c1e0f2-0001-4d6a-9a41-ada000000001",
    login: "ada",
    password: "ada at the provider",
    email: "ada@corp.test",
    name: "Ada Lovelace",
    groups: [ADMIN_GROUP, "everyone"],
  },
  /** In no group the portal maps. */
  outsider: {
    sub: "b7c1e0f2-0002-4d6a-9a41-011000000002",
    login: "olli",
    password: "olli at the provider",
    email: "olli@corp.test",
    name: "Olli Outsider",
    groups: [UNMAPPED_GROUP],
  },
} as const satisfies Record<string, TestIdpUser>;

/**
 * A portal's settings for this provider, with a reports area that answers nothing (single sign-on needs no
 * upstream; a configured start needs one): the admin group maps to admin, portal-editors to editor.
 */
export function ssoEnv(
  idp: Pick<TestProvider, "issuer" | "clientId" | "clientSecret">,
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    REPORTS_API_BASE_URL: "http://127.0.0.1:9/seo",
    REPORTS_API_KEY: CANARY.reports,
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: idp.clientId,
    OIDC_CLIENT_SECRET: idp.clientSecret ?? undefined,
    OIDC_ROLE_MAP: `${ADMIN_GROUP}=admin,portal-editors=editor`,
    OIDC_LABEL: "Test IdP",
    ...extra,
  };
}

export interface TestProviderOptions {
  /** Where the portal's callback is: registered exactly, as a real provider requires. */
  redirectUris: string[];
  /** Where the provider may send the browser after RP-initiated logout. */
  postLogoutRedirectUris?: string[];
  /** A fixed port; default a free one. */
  port?: number;
  /** Default true. False: created but not listening (the provider is down when the portal starts). */
  listen?: boolean;
  clientId?: string;
  /** A public client (token_endpoint_auth_method none): PKCE only, no secret. */
  publicClient?: boolean;
  /** Issue refresh tokens (like Keycloak). Default true; false like Google without access_type=offline. */
  refreshTokens?: boolean;
  /** Profile, email and groups in the ID token (default, like Keycloak); false: only at the userinfo endpoint. */
  claimsInIdToken?: boolean;
  /** Default: the two IDP_USERS. */
  users?: TestIdpUser[];
}

export interface TestProvider {
  /** The issuer identifier, e.g. http://127.0.0.1:41234 (what OIDC_ISSUER names). */
  issuer: string;
  port: number;
  clientId: string;
  /** null for a public client. */
  clientSecret: string | null;
  user(login: string): TestIdpUser;
  addUser(user: TestIdpUser): void;
  setGroups(login: string, groups: string[]): void;
  setDisabled(login: string, disabled: boolean): void;
  /**
   * Instead of redirecting the browser to the application's callback, show a page with a "Continue to the
   * application" link to it: a test reads (or changes) the callback URL, as someone in the middle could.
   */
  holdCallbacks(hold: boolean): void;
  /** Every ID token the token endpoint answers is rewritten by `change` and signed again with the provider's key. */
  tamperIdTokens(change: ((claims: Record<string, unknown>) => Record<string, unknown>) | null): void;
  /** Every secret the provider handed out (codes, access, refresh and ID tokens) and its client secret, for leak scans. */
  secrets(): string[];
  /** How many refresh-token grants the token endpoint answered (successful or not). */
  refreshGrants(): number;
  /** How many times its discovery document (/.well-known/openid-configuration) was served. */
  discoveryRequests(): number;
  /**
   * A new signing key with a new key id: ID tokens are signed with it from now on, and the key set (jwks_uri) lists
   * it next to the old one — as a provider rotating its keys does.
   */
  rotateSigningKey(): void;
  /** The provider goes down: its port closes and open connections are cut. */
  stop(): Promise<void>;
  /** The provider comes back, on the same port, with its state (users, sessions, grants). */
  start(): Promise<void>;
  close(): Promise<void>;
}

const html = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title} · Test IdP</title></head>
<body><main><p>Test IdP</p><h1>${title}</h1>${body}</main></body></html>`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = "";
  for await (const chunk of req) body += String(chunk);
  return new URLSearchParams(body);
}

function base64url(value: Buffer | string): string {
  return Buffer.from(value).toString("base64url");
}

export async function startTestProvider(options: TestProviderOptions): Promise<TestProvider> {
  // oidc-provider is an ES module: loaded dynamically so that both vitest and Playwright's loader take it.
  const { default: Provider } = await import("oidc-provider");
  const port = options.port ?? (await freePort());
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = options.clientId ?? "gatehouse";
  const clientSecret = options.publicClient ? null : `test-client-secret-${randomBytes(16).toString("hex")}`;
  const users = new Map<string, TestIdpUser>();
  for (const user of options.users ?? Object.values(IDP_USERS)) users.set(user.login, structuredClone(user));
  const bySub = (sub: string) => [...users.values()].find((user) => user.sub === sub);
  const handedOut = new Set<string>(clientSecret ? [clientSecret] : []);
  let refreshGrants = 0;
  let discoveryRequests = 0;
  let tamper: ((claims: Record<string, unknown>) => Record<string, unknown>) | null = null;
  let holdCallbacks = false;

  const newKey = () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const kid = createHash("sha256").update(randomBytes(8)).digest("hex").slice(0, 16);
    return { privateKey, kid, jwk: { ...privateKey.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" } };
  };
  const original = newKey();
  const { jwk } = original;
  /** The key ID tokens are signed with: the original one (oidc-provider signs), or one a rotation added. */
  let signing = original;

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        ...(clientSecret ? { client_secret: clientSecret } : { token_endpoint_auth_method: "none" }),
        client_name: "Gatehouse",
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.postLogoutRedirectUris ?? [],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "preferred_username"],
      groups: ["groups"],
      roles: ["realm_access"],
    },
    scopes: ["openid", "offline_access", "email", "profile", "groups", "roles"],
    conformIdTokenClaims: options.claimsInIdToken === false,
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource(ctx, form) {
          ctx.body = html(
            "Sign out of the Test IdP?",
            `${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign me out</button>`,
          );
        },
      },
    },
    pkce: { required: () => true },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      RefreshToken: 3600,
    },
    issueRefreshToken: async (_ctx, client) =>
      options.refreshTokens !== false && client.grantTypeAllowed("refresh_token"),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const user = bySub(sub);
      if (!user || user.disabled) return undefined;
      return {
        accountId: sub,
        // Read when a token is issued: a group change shows in the next ID token (at a refresh, say).
        claims: async () => ({
          sub,
          email: user.email,
          email_verified: true,
          name: user.name,
          preferred_username: user.login,
          groups: [...user.groups],
          ...user.extra,
        }),
      };
    },
    renderError(ctx, out) {
      ctx.type = "html";
      ctx.body = html(
        "Something went wrong",
        `<p>${escapeHtml(String(out.error))}: ${escapeHtml(String(out.error_description ?? ""))}</p>`,
      );
    },
  };

  const provider = new Provider(issuer, configuration);
  provider.use(async (ctx, next) => {
    if (ctx.path === "/.well-known/openid-configuration") discoveryRequests++;
    await next();
    // After a rotation the key set lists the new public key next to the old one.
    if (ctx.path === "/jwks" && signing !== original && typeof ctx.body === "object" && ctx.body !== null) {
      const { kty, n, e } = signing.jwk;
      const body = ctx.body as { keys: unknown[] };
      ctx.body = { keys: [...body.keys, { kty, n, e, kid: signing.kid, alg: "RS256", use: "sig" }] };
    }
  });
  // The token endpoint's answers: remember what was handed out, and rewrite ID tokens when a test asks.
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path !== "/token" || typeof ctx.body !== "object" || ctx.body === null) return;
    const body = ctx.body as Record<string, unknown>;
    if ((ctx as KoaContextWithOIDC).oidc?.params?.grant_type === "refresh_token") refreshGrants++;
    for (const name of ["access_token", "refresh_token", "id_token"]) {
      const value = body[name];
      if (typeof value === "string") handedOut.add(value);
    }
    if ((tamper || signing !== original) && typeof body.id_token === "string") {
      const [header, payload] = body.id_token.split(".");
      const decoded = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8")) as Record<string, unknown>;
      const claims = tamper ? tamper(decoded) : decoded;
      const signedHeader = {
        ...(JSON.parse(Buffer.from(header!, "base64url").toString("utf8")) as Record<string, unknown>),
        kid: signing.kid,
      };
      const signingInput = `${base64url(JSON.stringify(signedHeader))}.${base64url(JSON.stringify(claims))}`;
      const resigned = `${signingInput}.${base64url(sign("sha256", Buffer.from(signingInput), signing.privateKey))}`;
      body.id_token = resigned;
      handedOut.add(resigned);
    }
  });
  provider.use(async (ctx, next) => {
    await next();
    const location = ctx.response.get("location");
    if (!location || !options.redirectUris.some((uri) => location.startsWith(`${uri}?`))) return;
    const code = new URL(location).searchParams.get("code");
    if (code) handedOut.add(code);
    if (holdCallbacks) {
      ctx.status = 200;
      ctx.remove("location");
      ctx.type = "html";
      ctx.body = html("Signed in", `<p><a href="${escapeHtml(location)}">Continue to the application</a></p>`);
    }
  });

  const callback = provider.callback();

  async function interaction(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    const url = new URL(req.url ?? "/", issuer);
    const page = (status: number, body: string) => {
      res.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
      res.end(body);
    };
    if (req.method === "GET" && details.prompt.name === "login") {
      return page(200, loginPage(details.uid, null));
    }
    if (req.method === "GET" && details.prompt.name === "consent") {
      return page(
        200,
        html(
          "Allow Gatehouse to use your account?",
          `<p>Gatehouse asks for your profile, your email and your groups.</p>
<form method="post" action="/interaction/${details.uid}/consent"><button name="decision" value="allow">Allow</button> <button name="decision" value="deny">Deny</button></form>`,
        ),
      );
    }
    if (req.method === "POST" && url.pathname.endsWith("/login")) {
      const form = await readForm(req);
      const user = users.get(form.get("login") ?? "");
      if (!user || user.password !== form.get("password") || user.disabled)
        return page(200, loginPage(details.uid, "Wrong username or password."));
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: user.sub } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (req.method === "POST" && url.pathname.endsWith("/consent")) {
      const form = await readForm(req);
      if (form.get("decision") !== "allow") {
        await provider.interactionFinished(
          req,
          res,
          { error: "access_denied", error_description: "The user refused." },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      const { prompt, params, session } = details;
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId: session!.accountId, clientId: String(params.client_id) });
      const missing = prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
      if (missing.missingOIDCScope) grant!.addOIDCScope(missing.missingOIDCScope.join(" "));
      if (missing.missingOIDCClaims) grant!.addOIDCClaims(missing.missingOIDCClaims);
      const grantId = await grant!.save();
      await provider.interactionFinished(
        req,
        res,
        { consent: details.grantId ? {} : { grantId } },
        { mergeWithLastSubmission: true },
      );
      return;
    }
    page(400, html("Unexpected request", ""));
  }

  function loginPage(uid: string, error: string | null): string {
    return html(
      "Sign in to the Test IdP",
      `${error ? `<p role="alert">${error}</p>` : ""}<form method="post" action="/interaction/${uid}/login">
<p><label>Username <input name="login" autocomplete="username"></label></p>
<p><label>Password <input name="password" type="password" autocomplete="current-password"></label></p>
<button type="submit">Sign in</button></form>`,
    );
  }

  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith("/interaction/")) {
      interaction(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(400, { "Content-Type": "text/html; charset=utf-8" });
        res.end(
          html("Interaction failed", `<p>${escapeHtml(error instanceof Error ? error.message : String(error))}</p>`),
        );
      });
      return;
    }
    void callback(req, res);
  });
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });

  const start = () =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });

  if (options.listen !== false) await start();

  const userOf = (login: string) => {
    const user = users.get(login);
    if (!user) throw new Error(`the test provider has no user ${login}`);
    return user;
  };
  return {
    issuer,
    port,
    clientId,
    clientSecret,
    user: userOf,
    addUser: (user) => users.set(user.login, structuredClone(user)),
    setGroups: (login, groups) => (userOf(login).groups = [...groups]),
    setDisabled: (login, disabled) => (userOf(login).disabled = disabled),
    holdCallbacks: (hold) => (holdCallbacks = hold),
    tamperIdTokens: (change) => (tamper = change),
    secrets: () => [...handedOut],
    refreshGrants: () => refreshGrants,
    discoveryRequests: () => discoveryRequests,
    rotateSigningKey: () => (signing = newKey()),
    stop,
    start,
    close: stop,
  };
}

interface StoredCookie {
  name: string;
  value: string;
  path: string;
}

/**
 * A browser without a screen, for HTTP tests of the redirect flow: cookies per host (by path, as browsers keep
 * them), redirects followed one by one so a test can look at (or stop at) each, and the provider's pages filled in
 * like a person would.
 */
export class SignInBrowser {
  private readonly jar = new Map<string, StoredCookie[]>();
  /** Every URL visited, in order. */
  readonly visited: string[] = [];

  cookieHeader(url: URL): string {
    return (this.jar.get(url.host) ?? [])
      .filter((cookie) => url.pathname.startsWith(cookie.path))
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join("; ");
  }

  /** A cookie this browser holds for `origin`, by name. */
  cookie(origin: string, name: string): string | undefined {
    return this.jar.get(new URL(origin).host)?.find((cookie) => cookie.name === name)?.value;
  }

  /** Drops every cookie of `origin` (a provider's session that expired, say). */
  forget(origin: string): void {
    this.jar.delete(new URL(origin).host);
  }

  setCookie(origin: string, name: string, value: string, path = "/"): void {
    this.store(new URL(origin), `${name}=${value}; Path=${path}`);
  }

  private store(url: URL, line: string): void {
    const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
    const name = pair.slice(0, pair.indexOf("="));
    const value = pair.slice(name.length + 1);
    const path = attributes.find((a) => /^path=/i.test(a))?.slice(5) || "/";
    const expired = attributes.some(
      (a) => /^max-age=0$/i.test(a) || (/^expires=/i.test(a) && Date.parse(a.slice(8)) < Date.now()),
    );
    const cookies = (this.jar.get(url.host) ?? []).filter((cookie) => !(cookie.name === name && cookie.path === path));
    if (!expired && value !== "") cookies.push({ name, value, path });
    this.jar.set(url.host, cookies);
  }

  /** One request, no redirect followed. */
  async request(
    url: string,
    init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<{ url: string; status: number; location: string | null; text: string; headers: Headers }> {
    const target = new URL(url);
    this.visited.push(target.href);
    const headers: Record<string, string> = { ...init.headers };
    const cookies = this.cookieHeader(target);
    if (cookies) headers.Cookie = cookies;
    if (init.form) headers["Content-Type"] = "application/x-www-form-urlencoded";
    const res = await fetch(target, {
      method: init.method ?? (init.form ? "POST" : "GET"),
      headers,
      body: init.form ? new URLSearchParams(init.form) : undefined,
      redirect: "manual",
    });
    for (const line of res.headers.getSetCookie()) this.store(target, line);
    const location = res.headers.get("location");
    return {
      url: target.href,
      status: res.status,
      location: location ? new URL(location, target).href : null,
      text: await res.text(),
      headers: res.headers,
    };
  }

  /** Follows redirects from `url` until a page answers (or `stopAt` matches a URL about to be loaded). */
  async follow(
    url: string,
    init: { method?: string; form?: Record<string, string> } = {},
    stopAt?: (url: URL) => boolean,
  ) {
    let answer = await this.request(url, init);
    for (let hops = 0; answer.location && hops < 20; hops++) {
      if (stopAt?.(new URL(answer.location))) return answer;
      answer = await this.request(answer.location);
    }
    return answer;
  }

  /** The action of the page's first form (the provider's login or consent page). */
  static formAction(page: { url: string; text: string }): string {
    const action = /<form[^>]*action="([^"]+)"/.exec(page.text)?.[1];
    if (!action) throw new Error(`no form on ${page.url}: ${page.text.slice(0, 500)}`);
    return new URL(action.replace(/&amp;/g, "&"), page.url).href;
  }
}

/**
 * The callback URL the provider sends the browser to for `authorizationUrl` (built in-process by a test), after its
 * sign-in page and, the first time, its consent page: what a unit test then hands to the code exchange.
 */
export async function callbackUrlFor(
  authorizationUrl: URL,
  who: { login: string; password: string },
  redirectUri: string,
): Promise<URL> {
  const browser = new SignInBrowser();
  const atCallback = (url: URL) => url.href.startsWith(redirectUri);
  let page = await browser.follow(authorizationUrl.href, {}, atCallback);
  page = await browser.follow(
    SignInBrowser.formAction(page),
    { form: { login: who.login, password: who.password } },
    atCallback,
  );
  if (!page.location)
    page = await browser.follow(SignInBrowser.formAction(page), { form: { decision: "allow" } }, atCallback);
  if (!page.location) throw new Error(`the provider did not send the browser back: ${page.text.slice(0, 300)}`);
  return new URL(page.location);
}

export interface SsoWalk {
  /** The callback URL the provider sent the browser to (with code and state), or null if it never did. */
  callback: string | null;
  /** Gatehouse's answer to the callback (or, without one, the last answer): a 303 to the page or to /login?error=. */
  answer: { url: string; status: number; location: string | null; text: string; headers: Headers };
}

/**
 * A sign-in as a person does it: the portal's start link, the provider's sign-in page (when it has no session for
 * him yet) and its consent page (the first time), then the callback. `tamper` may change the callback URL before
 * the browser loads it; `consent: "deny"` presses Deny.
 */
export async function walkSsoSignIn(
  browser: SignInBrowser,
  portalUrl: string,
  who: { login: string; password: string } | null,
  options: {
    next?: string;
    prompt?: "login" | "none";
    consent?: "allow" | "deny";
    tamper?: (callback: URL) => URL;
  } = {},
): Promise<SsoWalk> {
  const query = new URLSearchParams();
  if (options.next) query.set("next", options.next);
  if (options.prompt) query.set("prompt", options.prompt);
  const atCallback = (url: URL) =>
    url.origin === new URL(portalUrl).origin && url.pathname === "/api/auth/oidc/callback";
  let page = await browser.follow(`${portalUrl}/api/auth/oidc/start${query.size ? `?${query}` : ""}`, {}, atCallback);
  for (let step = 0; step < 4 && !(page.location && atCallback(new URL(page.location))); step++) {
    if (page.status !== 200 || !page.url.startsWith("http") || new URL(page.url).origin === new URL(portalUrl).origin)
      return { callback: null, answer: page };
    if (page.text.includes('name="login"')) {
      if (!who) return { callback: null, answer: page };
      page = await browser.follow(
        SignInBrowser.formAction(page),
        { form: { login: who.login, password: who.password } },
        atCallback,
      );
    } else if (page.text.includes('name="decision"')) {
      page = await browser.follow(
        SignInBrowser.formAction(page),
        { form: { decision: options.consent ?? "allow" } },
        atCallback,
      );
    } else {
      return { callback: null, answer: page };
    }
  }
  if (!page.location || !atCallback(new URL(page.location))) return { callback: null, answer: page };
  const callback = options.tamper ? options.tamper(new URL(page.location)).href : page.location;
  return { callback, answer: await browser.request(callback) };
}
