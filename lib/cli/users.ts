// Operators' users CLI: `npm run users -- <command>`. Runs under tsx with the react-server condition (see
// package.json), because the store and the config import "server-only", which only loads under that condition.
//
// Exit codes: 0 done, 1 refused (a value breaks a rule, the user is unknown, the last admin would go…),
// 2 usage (unknown command or option, missing argument).
import { parseArgs } from "node:util";

import { z } from "zod";

import { recordAudit } from "@/lib/auth/audit";
import { announceFactorChange } from "@/lib/auth/factors/changes";
import { deleteFactors } from "@/lib/auth/factors/reset";
import { removeDemoAccounts } from "@/lib/auth/demo-accounts";
import { emailSchema, nameSchema, roleSchema } from "@/lib/contract/accounts";
import { passwordSchema } from "@/lib/contract/password";
import { ROLES } from "@/lib/contract/values";
import {
  createUser,
  isAccountError,
  getUserByEmail,
  listUsers,
  revokeSessions,
  updateUser,
  type UpdateUserInput,
  type User,
} from "@/lib/auth/users";
import { linkIdentity } from "@/lib/auth/sso-users";
import { readSignInSettings } from "@/lib/config/oidc";
import { configuredStoreTarget, DatabaseUrlError } from "@/lib/config/store";
import { openDb, type Db } from "@/lib/db";
import { announceUserChange, TTL_MS } from "@/lib/auth/user-cache";
import { revokesTokens, revokeTokensOnRecovery } from "@/lib/tokens/recovery";
import { readEnv } from "@/lib/config/env";
import { removeDemoKeys } from "@/lib/upstream/keys/store";
import { forgetPeople } from "@/lib/notifications/subscriptions";
import { setEventSink } from "@/lib/events";
import { enqueueEvent } from "@/lib/webhooks/deliveries";

import { runWhenEntryPoint, type Output } from "./entry";

const USAGE = `Usage: npm run users -- <command>

Commands:
  create --email <email> --name <name> --role <role> [--password <password>]
  list [--json]
  set-role <email> <role>
  disable <email> [--keep-tokens]
  enable <email>
  reset-password <email> [--password <password>] [--keep-tokens]
  reset-factors <email>
  link-sso <email> <subject>
  remove-demo-accounts

Roles: ${ROLES.join(", ")}.
Without --password, the password is asked for (twice, hidden) on a terminal, or read from the first line of
standard input otherwise — prefer that: a password on the command line stays in the shell history.
Passwords need at least 12 characters and must be hard to guess (not a common password or the user's email). Role changes, disabling and password resets end the user's sessions.
Disabling and password resets also revoke the user's API tokens, unless --keep-tokens is given; enabling the user
again revives none.
remove-demo-accounts deletes every account with a @demo.test address or the demo password (a configured
start refuses a store that holds one), and the upstream keys the demo kept in it.
reset-factors removes the user's second factors (passkeys, authenticator app, recovery codes) and ends their
sessions, for the day someone loses their phone: they sign in with their password alone and enrol again (at once,
when the sign-in policy requires a second factor of their role).
link-sso makes a password account one that signs in with single sign-on (OIDC_ISSUER) as the provider's
<subject> (its "sub"; the audit log names it when that person's first sign-in was refused because the email was
taken): its password is removed, its sessions end, and its role comes from the groups at the next sign-in.
The store is DATABASE_URL (default ./data/gatehouse.db), as for the portal; like npm start, the CLI reads
.env.local and the other .env files.`;

class UsageError extends Error {}
class Refusal extends Error {}

function firstIssue(error: z.ZodError): string {
  return error.issues[0]?.message ?? "invalid value";
}

function parseOrRefuse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new Refusal(firstIssue(result.error));
  return result.data;
}

async function readPassword(given: string | undefined): Promise<string> {
  if (given !== undefined) return parseOrRefuse(passwordSchema, given);
  if (process.stdin.isTTY) {
    const first = await promptHidden("Password: ");
    parseOrRefuse(passwordSchema, first);
    const second = await promptHidden("Repeat password: ");
    if (first !== second) throw new Refusal("the two passwords differ");
    return first;
  }
  const piped = await readFirstLine();
  if (piped === null) {
    throw new UsageError("no password: give --password, type it on a terminal, or pipe it on standard input");
  }
  return parseOrRefuse(passwordSchema, piped);
}

async function readFirstLine(): Promise<string | null> {
  let input = "";
  for await (const chunk of process.stdin) {
    input += String(chunk);
    if (input.includes("\n")) break;
  }
  if (input === "") return null;
  return input.split(/\r?\n/)[0] ?? "";
}

function promptHidden(prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    // Raw mode before the prompt shows: no keystroke typed after it can be echoed.
    stdin.setRawMode(true);
    process.stderr.write(prompt);
    stdin.resume();
    stdin.setEncoding("utf8");
    let value = "";
    const finish = (result: string | null) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off("data", onData);
      process.stderr.write("\n");
      if (result === null) reject(new Refusal("cancelled"));
      else resolve(result);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n") return finish(value);
        if (ch === "\u0003" || ch === "\u0004") return finish(null); // Ctrl-C, Ctrl-D
        if (ch === "\u007f" || ch === "\b") value = value.slice(0, -1);
        else value += ch;
      }
    };
    stdin.on("data", onData);
  });
}

async function findUser(db: Db, rawEmail: string | undefined): Promise<User> {
  if (rawEmail === undefined) throw new UsageError("missing <email>");
  const email = parseOrRefuse(emailSchema, rawEmail);
  const user = await getUserByEmail(db, email);
  if (!user) throw new Refusal(`no user with email ${email}`);
  return user;
}

// Operator changes are audited like admin changes in the portal, marked as coming from the CLI.
async function audit(
  db: Db,
  action: "user.create" | "user.update" | "user.delete" | "auth.factors_reset",
  user: Pick<User, "id" | "email">,
  changes: string[],
): Promise<void> {
  await recordAudit(db, {
    userId: null,
    userEmail: null,
    action,
    target: { type: "user", id: user.id },
    outcome: "success",
    requestId: null,
    detail: { via: "cli", email: user.email, changes },
  });
}

async function change(db: Db, out: Output, user: User, patch: UpdateUserInput, done: (u: User) => string) {
  const updated = await updateUser(db, user.id, patch);
  await audit(db, "user.update", updated, Object.keys(patch));
  await announce(out, updated.id);
  out.out(done(updated));
  if (!revokesTokens(patch)) return;
  const revoked = await revokeTokensOnRecovery(db, updated, patch, null, (entry) =>
    recordAudit(db, {
      ...entry,
      userId: null,
      userEmail: null,
      requestId: null,
      detail: { ...entry.detail, via: "cli" },
    }),
  );
  if (revoked > 0) out.out(`Revoked ${revoked} API token${revoked === 1 ? "" : "s"} of ${updated.email}.`);
}

/** Running instances keep a user's row for their session checks a moment: with Redis, tell them now. */
async function announce(out: Output, userId: string): Promise<void> {
  const redisUrl = readEnv(process.env, []).redisUrl;
  if (redisUrl && !(await announceUserChange(redisUrl, userId))) {
    out.err(`Redis (REDIS_URL) did not answer: running instances apply this change within ${TTL_MS / 1000} s.`);
  }
}

/** --keep-tokens: the one way to keep a user's API tokens through a password reset or disabling. */
const keepTokens = (values: { "keep-tokens"?: boolean }) => (values["keep-tokens"] ? { revoke_tokens: false } : {});

function exactly(positionals: string[], count: number, names: string) {
  if (positionals.length !== count) throw new UsageError(`expected ${names}`);
}

async function run(argv: string[], out: Output): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    out.out(USAGE);
    return command === undefined ? 2 : 0;
  }

  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: true,
    options: {
      email: { type: "string" },
      name: { type: "string" },
      role: { type: "string" },
      password: { type: "string" },
      json: { type: "boolean" },
      "keep-tokens": { type: "boolean" },
    },
  });

  const allowed: Record<string, string[]> = {
    create: ["email", "name", "role", "password"],
    list: ["json"],
    "set-role": [],
    disable: ["keep-tokens"],
    enable: [],
    "reset-password": ["password", "keep-tokens"],
    "link-sso": [],
    "reset-factors": [],
    "remove-demo-accounts": [],
  };
  const allowedOptions = allowed[command];
  if (!allowedOptions) throw new UsageError(`unknown command "${command}"`);
  const stray = Object.keys(values).find((k) => !allowedOptions.includes(k));
  if (stray) throw new UsageError(`${command} takes no --${stray}`);

  // The configured deployment's store (DATABASE_URL), never the demo's.
  const store = await openDb(configuredStoreTarget());
  const db = store.db;
  try {
    switch (command) {
      case "create": {
        exactly(positionals, 0, "options only: --email, --name, --role [--password]");
        for (const required of ["email", "name", "role"] as const) {
          if (values[required] === undefined) throw new UsageError(`create needs --${required}`);
        }
        const email = parseOrRefuse(emailSchema, values.email);
        const name = parseOrRefuse(nameSchema, values.name);
        const role = parseOrRefuse(roleSchema, values.role);
        // Refuse a taken email before asking for a password (createUser still guards against a race).
        if (await getUserByEmail(db, email)) throw new Refusal(`a user with email ${email} already exists`);
        const password = await readPassword(values.password);
        const user = await createUser(db, { email, name, role, password });
        await audit(db, "user.create", user, ["email", "name", "role", "password"]);
        out.out(`Created ${user.role} ${user.email} (id ${user.id}).`);
        return 0;
      }
      case "list": {
        exactly(positionals, 0, "no arguments");
        const users = await listUsers(db);
        if (values.json) {
          out.out(JSON.stringify(users, null, 2));
          return 0;
        }
        if (users.length === 0) {
          out.out("No users yet. Create one with: npm run users -- create --email … --name … --role admin");
          return 0;
        }
        const status = (u: User) => (u.disabled ? "disabled" : "active");
        // How each signs in: a password, or single sign-on (with a pinned role, when an admin set it by hand).
        const signIn = (u: User) => (u.identity ? (u.rolePinned ? "sso, role pinned" : "sso") : "password");
        const rows = users.map((u) => [u.email, u.name, u.role, status(u), signIn(u), u.createdAt.slice(0, 10)]);
        const header = ["EMAIL", "NAME", "ROLE", "STATUS", "SIGN-IN", "CREATED"];
        const table = [header, ...rows];
        const widths = header.map((_, i) => Math.max(...table.map((row) => (row[i] ?? "").length)));
        for (const row of table)
          out.out(
            row
              .map((cell, i) => cell.padEnd(widths[i] ?? 0))
              .join("  ")
              .trimEnd(),
          );
        return 0;
      }
      case "set-role": {
        exactly(positionals, 2, "<email> <role>");
        const role = parseOrRefuse(roleSchema, positionals[1]);
        const user = await findUser(db, positionals[0]);
        await change(db, out, user, { role }, (u) => `${u.email} is now ${u.role}; their sessions were ended.`);
        return 0;
      }
      case "disable": {
        exactly(positionals, 1, "<email>");
        const user = await findUser(db, positionals[0]);
        await change(
          db,
          out,
          user,
          { disabled: true, ...keepTokens(values) },
          (u) => `Disabled ${u.email}; their sessions were ended.`,
        );
        return 0;
      }
      case "enable": {
        exactly(positionals, 1, "<email>");
        const user = await findUser(db, positionals[0]);
        await change(db, out, user, { disabled: false }, (u) => `Enabled ${u.email}.`);
        return 0;
      }
      case "remove-demo-accounts": {
        exactly(positionals, 0, "no arguments");
        const removed = await removeDemoAccounts(db);
        // Their notification rows go with them (subscriptions, preferences, digests, deliveries not yet sent).
        await forgetPeople(
          db,
          removed.map((account) => account.id),
        );
        // The demo's upstream keys are sealed with its own KEK: a configured start could not open them.
        const keys = await removeDemoKeys(db);
        if (keys > 0) out.out(`Removed the demo's upstream keys (${keys}).`);
        if (removed.length === 0) {
          out.out("No demo accounts in this store.");
          return 0;
        }
        for (const account of removed) {
          await audit(db, "user.delete", account, [account.why]);
          out.out(`Removed ${account.email} (${account.why}).`);
        }
        out.out(
          "Accounts created while a demo ran on this store cannot be told apart from others: review them with: npm run users -- list",
        );
        return 0;
      }
      case "link-sso": {
        exactly(positionals, 2, "<email> <subject>");
        const user = await findUser(db, positionals[0]);
        const subject = positionals[1]!.trim();
        if (subject === "" || subject.length > 255 || /\p{Cc}/u.test(subject))
          throw new Refusal("the subject must be the provider's id for the person (its sub claim), 1-255 characters");
        const { settings, problems } = readSignInSettings(process.env);
        if (!settings.oidc || problems.length > 0)
          throw new Refusal(
            "single sign-on is not set up (OIDC_ISSUER and the other OIDC_ settings, as for the portal)",
          );
        if (user.identity)
          throw new Refusal(
            `${user.email} already signs in with single sign-on (as ${user.identity.subject} at ${user.identity.issuer})`,
          );
        if (settings.breakGlassEmail === user.email)
          throw new Refusal(`${user.email} is the break-glass admin (PASSWORD_LOGIN=off): it must keep its password`);
        const linked = await linkIdentity(db, user.id, { issuer: settings.oidc.issuer, subject });
        await audit(db, "user.update", linked, ["identity"]);
        await announce(out, linked.id);
        out.out(
          `${linked.email} now signs in with ${settings.oidc.label} as ${subject}; its password was removed and its sessions ended. Its role comes from the groups at its next sign-in.`,
        );
        return 0;
      }
      case "reset-factors": {
        exactly(positionals, 1, "<email>");
        const user = await findUser(db, positionals[0]);
        const removed = await db.transaction().execute((trx) => deleteFactors(trx, [user.id]));
        await revokeSessions(db, user.id);
        await audit(db, "auth.factors_reset", user, [
          ...(removed.passkeys > 0 ? ["passkeys"] : []),
          ...(removed.totp > 0 ? ["totp"] : []),
          ...(removed.recoveryCodes > 0 ? ["recovery_codes"] : []),
        ]);
        // The event is stored as deliveries for the webhook endpoints; the running portal's sweep sends them.
        setEventSink("webhooks", async (event) => {
          await enqueueEvent(db, event.type, event.data, event.occurredAt);
        });
        try {
          await announceFactorChange(user, { type: "account.factors_reset" });
        } finally {
          setEventSink("webhooks", null);
        }
        await announce(out, user.id);
        const what = [
          `${removed.passkeys} passkey${removed.passkeys === 1 ? "" : "s"}`,
          removed.totp > 0 ? "the authenticator app" : "no authenticator app",
          `${removed.recoveryCodes} recovery code${removed.recoveryCodes === 1 ? "" : "s"}`,
        ].join(", ");
        out.out(
          `Removed the second factors of ${user.email} (${what}); their sessions were ended. They sign in with their password and enrol again.`,
        );
        return 0;
      }
      case "reset-password": {
        exactly(positionals, 1, "<email>");
        const user = await findUser(db, positionals[0]);
        const password = await readPassword(values.password);
        await change(
          db,
          out,
          user,
          { password, ...keepTokens(values) },
          (u) => `Password changed for ${u.email}; their sessions were ended.`,
        );
        return 0;
      }
    }
    return 2;
  } finally {
    await store.close();
  }
}

/** Runs one command; returns the exit code. Exported for in-process tests; the process entry is below. */
export async function main(argv: string[], out: Output): Promise<number> {
  try {
    return await run(argv, out);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      out.err(`users: ${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof Refusal || isAccountError(error) || error instanceof DatabaseUrlError) {
      out.err(`users: ${error.message}`);
      return 1;
    }
    if (error instanceof z.ZodError) {
      out.err(`users: ${firstIssue(error)}`);
      return 1;
    }
    throw error;
  }
}

runWhenEntryPoint("users", import.meta.url, main);
