// The users CLI. First as operators run it — a child process under tsx with the react-server condition, as
// `npm run users` does — then, for every command and refusal, in-process through its main() (each child
// process costs about a second of tsx start-up). Both run against real SQLite files.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { listAudit } from "@/lib/auth/audit";
import { generateRecoveryCodes } from "@/lib/auth/factors/recovery";
import { startTotpEnrolment } from "@/lib/auth/factors/totp";
import { getUserByEmail, verifyCredentials } from "@/lib/auth/users";
import { main } from "@/lib/cli/users";
import { parseDatabaseUrl } from "@/lib/config/store";
import { closeDb, openDb, type Store } from "@/lib/db";
import { getSubscriptions, setSubscriptions } from "@/lib/notifications/subscriptions";
import { insertDelivery } from "@/lib/notifications/deliveries";
import { checkToken, createToken } from "@/lib/tokens/store";
import { createEndpoint } from "@/lib/webhooks/endpoints";
import { ROOT } from "@/tests/support/processes";

const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");
const PASSWORD = "correct horse battery";

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let dir: string;
const savedDatabaseUrl = process.env.DATABASE_URL;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "gatehouse-cli-"));
});

afterAll(async () => {
  await closeDb();
  if (savedDatabaseUrl === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = savedDatabaseUrl;
  await rm(dir, { recursive: true, force: true });
});

async function inStore<T>(databaseUrl: string, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await openDb(parseDatabaseUrl(databaseUrl));
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

describe("as a child process (npm run users)", () => {
  let databaseUrl: string;
  beforeAll(() => {
    databaseUrl = path.join(dir, "child", "data", "gatehouse.db"); // the folder does not exist yet
  });

  function users(args: string[], stdin = ""): Promise<Run> {
    return new Promise((resolve, reject) => {
      const child = spawn(TSX, ["--conditions=react-server", "lib/cli/users.ts", ...args], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: databaseUrl },
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
      child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
      child.once("error", reject);
      child.once("close", (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(stdin);
    });
  }

  it("creates users (password piped on stdin), lists them, and exits 0, 1 or 2", async () => {
    const [usage, admin] = await Promise.all([
      users([]),
      users(["create", "--email", "Root@Example.com", "--name", "Root", "--role", "admin"], `${PASSWORD}\n`),
    ]);
    expect(usage.code).toBe(2);
    expect(usage.stdout).toContain("Usage: npm run users -- <command>");
    expect(admin).toMatchObject({ code: 0, stderr: "" });
    expect(admin.stdout).toMatch(/^Created admin root@example\.com \(id [0-9a-f-]{36}\)\.\n$/);

    const [taken, noPassword, list] = await Promise.all([
      users(["create", "--email", "root@example.com", "--name", "R", "--role", "viewer", "--password", PASSWORD]),
      users(["reset-password", "root@example.com"]), // nothing on stdin
      users(["list"]),
    ]);
    expect(taken).toMatchObject({
      code: 1,
      stdout: "",
      stderr: "users: a user with email root@example.com already exists\n",
    });
    expect(noPassword.code).toBe(2);
    expect(noPassword.stderr).toContain("users: no password: give --password, type it on a terminal, or pipe it");
    expect(list).toMatchObject({ code: 0, stderr: "" });
    expect(list.stdout).toMatch(
      /^EMAIL\s+NAME\s+ROLE\s+STATUS\s+SIGN-IN\s+CREATED\nroot@example\.com\s+Root\s+admin\s+active\s+password\s+\d{4}-\d\d-\d\d\n$/,
    );

    await inStore(databaseUrl, async ({ db }) => {
      expect((await verifyCredentials(db, "root@example.com", PASSWORD))?.role).toBe("admin");
    });
  });

  // On a terminal (a pseudo-terminal from util-linux `script`), the password is asked twice and not echoed.
  function usersOnTerminal(args: string[], answers: string[]): Promise<Run> {
    const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;
    const command = [TSX, "--conditions=react-server", "lib/cli/users.ts", ...args].map(quote).join(" ");
    return new Promise((resolve, reject) => {
      const child = spawn("script", ["-qec", command, "/dev/null"], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: databaseUrl },
        stdio: ["pipe", "pipe", "pipe"],
      });
      let output = "";
      let answered = 0;
      child.stdout.on("data", (c: Buffer) => {
        output += c.toString();
        // Answer each prompt once it is shown, as a person would (typing ahead would echo before raw mode).
        const prompts = output.split("assword: ").length - 1;
        if (prompts > answered && answered < answers.length) child.stdin.write(`${answers[answered++]}\r`);
      });
      child.once("error", reject);
      child.once("close", (code) => resolve({ code, stdout: output, stderr: "" }));
    });
  }

  it("asks for the password twice on a terminal without echoing it", async () => {
    const [reset, mismatch] = await Promise.all([
      usersOnTerminal(["reset-password", "root@example.com"], ["typed on a terminal", "typed on a terminal"]),
      usersOnTerminal(["reset-password", "root@example.com"], ["typed on a terminal", "typed differently!"]),
    ]);
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain("Password: ");
    expect(reset.stdout).toContain("Repeat password: ");
    expect(reset.stdout).toContain("Password changed for root@example.com; their sessions were ended.");
    expect(reset.stdout).not.toContain("typed on a terminal");
    expect(mismatch.code).toBe(1);
    expect(mismatch.stdout).toContain("users: the two passwords differ");
    await inStore(databaseUrl, async ({ db }) => {
      expect(await verifyCredentials(db, "root@example.com", "typed on a terminal")).not.toBeNull();
    });
  });
});

describe("every command, in-process", () => {
  let databaseUrl: string;
  beforeAll(() => {
    databaseUrl = path.join(dir, "in-process.db");
    process.env.DATABASE_URL = databaseUrl;
  });

  async function users(...args: string[]): Promise<Run> {
    let stdout = "";
    let stderr = "";
    const code = await main(args, { out: (l) => (stdout += `${l}\n`), err: (l) => (stderr += `${l}\n`) });
    return { code, stdout, stderr };
  }

  // One story, in order: each step starts from what the previous ones left.
  it("creates an admin and a viewer", async () => {
    expect(
      await users("create", "--email", "root@example.com", "--name", "Root", "--role", "admin", "--password", PASSWORD),
    ).toMatchObject({
      code: 0,
    });
    expect(
      await users(
        "create",
        "--email",
        "Vera@Example.com",
        "--name",
        "Vera",
        "--role",
        "viewer",
        "--password",
        PASSWORD,
      ),
    ).toMatchObject({
      code: 0,
      stderr: "",
    });
  });

  it("refuses (exit 1) a taken email, a weak password, an unknown role, a bad email", async () => {
    const create = (email: string, role: string, password: string) =>
      users("create", "--email", email, "--name", "X", "--role", role, "--password", password);
    expect(await create("VERA@example.com", "viewer", PASSWORD)).toEqual({
      code: 1,
      stdout: "",
      stderr: "users: a user with email vera@example.com already exists\n",
    });
    expect(await create("w@example.com", "viewer", "hunter2")).toMatchObject({
      code: 1,
      stderr: "users: password must be at least 12 characters\n",
    });
    expect(await create("w@example.com", "viewer", "password1234")).toMatchObject({
      code: 1,
      stderr:
        "users: password is too easy to guess: This is similar to a commonly used password. Use a longer phrase of unrelated words\n",
    });
    expect(await create("w@example.com", "viewer", "lantern w@example.com harbour")).toMatchObject({
      code: 1,
      stderr: "users: password must not contain the account's email\n",
    });
    expect(await create("o@example.com", "owner", PASSWORD)).toMatchObject({
      code: 1,
      stderr: "users: role must be one of: admin, editor, viewer, support\n",
    });
    expect(await create("not-an-email", "viewer", PASSWORD)).toMatchObject({
      code: 1,
      stderr: "users: email must be an address such as name@example.com\n",
    });
  });

  it("explains usage mistakes (exit 2)", async () => {
    const cases: Array<[string[], string]> = [
      [["promote", "a@example.com"], 'users: unknown command "promote"'],
      [["create", "--email", "m@example.com", "--name", "M"], "users: create needs --role"],
      [["disable", "a@example.com", "--role", "admin"], "users: disable takes no --role"],
      [["set-role", "vera@example.com"], "users: expected <email> <role>"],
      [["enable"], "users: expected <email>"],
      [["list", "--frobnicate"], "users: Unknown option '--frobnicate'"],
    ];
    for (const [args, message] of cases) {
      const run = await users(...args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr.startsWith(message), run.stderr).toBe(true);
      expect(run.stderr).toContain("Usage: npm run users -- <command>");
    }
    expect(await users("help")).toMatchObject({ code: 0, stderr: "" });
  });

  it("lists users as a table and as JSON, without password hashes", async () => {
    const table = await users("list");
    expect(table.stdout).toMatch(/root@example\.com\s+Root\s+admin\s+active/);
    expect(table.stdout).toMatch(/vera@example\.com\s+Vera\s+viewer\s+active/);
    const json = await users("list", "--json");
    const listed = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(listed.map((u) => [u.email, u.role, u.disabled])).toEqual([
      ["root@example.com", "admin", false],
      ["vera@example.com", "viewer", false],
    ]);
    expect(json.stdout).not.toContain("scrypt");
  });

  it("will not demote or disable the last admin (exit 1)", async () => {
    const message =
      "users: root@example.com is the last admin who can sign in: make another person admin before demoting or disabling this one (a service account does not count)\n";
    expect(await users("set-role", "root@example.com", "editor")).toMatchObject({ code: 1, stderr: message });
    expect(await users("disable", "root@example.com")).toMatchObject({ code: 1, stderr: message });
  });

  it("changes a role, disables, enables and resets a password, ending sessions where it must", async () => {
    const before = await inStore(databaseUrl, ({ db }) => getUserByEmail(db, "vera@example.com"));
    expect(await users("set-role", "VERA@example.com", "support")).toEqual({
      code: 0,
      stdout: "vera@example.com is now support; their sessions were ended.\n",
      stderr: "",
    });
    expect(await users("disable", "vera@example.com")).toMatchObject({
      code: 0,
      stdout: "Disabled vera@example.com; their sessions were ended.\n",
    });
    expect(await users("list")).toMatchObject({
      stdout: expect.stringMatching(/vera@example\.com\s+Vera\s+support\s+disabled/),
    });
    expect(await users("enable", "vera@example.com")).toMatchObject({ code: 0, stdout: "Enabled vera@example.com.\n" });
    expect(await users("reset-password", "vera@example.com", "--password", "a brand new password")).toMatchObject({
      code: 0,
      stdout: "Password changed for vera@example.com; their sessions were ended.\n",
    });
    expect(await users("reset-password", "vera@example.com", "--password", "short")).toMatchObject({
      code: 1,
      stderr: "users: password must be at least 12 characters\n",
    });

    await inStore(databaseUrl, async ({ db }) => {
      const after = await getUserByEmail(db, "vera@example.com");
      expect(after).toMatchObject({ role: "support", disabled: false });
      expect(after?.sessionVersion).toBe((before?.sessionVersion ?? 0) + 3); // role, disable, password
      expect(await verifyCredentials(db, "vera@example.com", PASSWORD)).toBeNull();
      expect((await verifyCredentials(db, "vera@example.com", "a brand new password"))?.role).toBe("support");
    });
  });

  it("refuses an unknown user (exit 1)", async () => {
    expect(await users("enable", "nobody@example.com")).toEqual({
      code: 1,
      stdout: "",
      stderr: "users: no user with email nobody@example.com\n",
    });
  });

  it("leaves an audit row for each change, marked as coming from the CLI, without passwords", async () => {
    const { rows } = await inStore(databaseUrl, ({ db }) => listAudit(db, {}));
    expect(rows.map((r) => [r.action, r.target?.type, r.detail?.email, r.detail?.changes]).reverse()).toEqual([
      ["user.create", "user", "root@example.com", ["email", "name", "role", "password"]],
      ["user.create", "user", "vera@example.com", ["email", "name", "role", "password"]],
      ["user.update", "user", "vera@example.com", ["role"]],
      ["user.update", "user", "vera@example.com", ["disabled"]],
      ["user.update", "user", "vera@example.com", ["disabled"]],
      ["user.update", "user", "vera@example.com", ["password"]],
    ]);
    expect(rows.every((r) => r.detail?.via === "cli" && r.userId === null && r.outcome === "success")).toBe(true);
    expect(JSON.stringify(rows)).not.toContain("brand new password");
  });

  it("revokes the user's API tokens with a password reset or disabling, unless --keep-tokens; enabling revives none", async () => {
    const newToken = () =>
      inStore(
        databaseUrl,
        async ({ db }) =>
          (
            await createToken(db, (await getUserByEmail(db, "vera@example.com"))!, {
              name: "script",
              scopes: ["items:read"],
              expires_in_days: 30,
            })
          ).secret,
      );
    const check = (secret: string) => inStore(databaseUrl, ({ db }) => checkToken(db, secret, null));

    const first = await newToken();
    expect(
      await users("reset-password", "vera@example.com", "--password", "violet harbour lantern 7", "--keep-tokens"),
    ).toEqual({
      code: 0,
      stdout: "Password changed for vera@example.com; their sessions were ended.\n",
      stderr: "",
    });
    expect((await check(first)).ok).toBe(true);
    expect(await users("reset-password", "vera@example.com", "--password", "copper meadow signal 9")).toMatchObject({
      code: 0,
      stdout:
        "Password changed for vera@example.com; their sessions were ended.\nRevoked 1 API token of vera@example.com.\n",
    });
    expect(await check(first)).toMatchObject({ ok: false, reason: "revoked" });

    const second = await newToken();
    expect(await users("disable", "vera@example.com")).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("Revoked 1 API token of vera@example.com."),
    });
    expect(await users("enable", "vera@example.com")).toMatchObject({ code: 0 });
    expect(await check(second)).toMatchObject({ ok: false, reason: "revoked" });

    const { rows } = await inStore(databaseUrl, ({ db }) => listAudit(db, { action: "token.revoke" }));
    expect(rows.map((r) => [r.detail?.reason, r.detail?.owner, r.detail?.via])).toEqual([
      ["user_disabled", "vera@example.com", "cli"],
      ["password_reset", "vera@example.com", "cli"],
    ]);
  });

  it("removes the demo accounts with their notification subscriptions and the deliveries still to send", async () => {
    expect(
      await users("create", "--email", "temp@demo.test", "--name", "Temp", "--role", "editor", "--password", PASSWORD),
    ).toMatchObject({ code: 0 });
    const id = await inStore(databaseUrl, async ({ db }) => {
      const user = (await getUserByEmail(db, "temp@demo.test"))!;
      await setSubscriptions(db, "user", user.id, [{ topic: "report.regressed", project: null, rule: null }]);
      await insertDelivery(db, {
        recipientKind: "user",
        recipientId: user.id,
        channelKind: "email",
        topic: "report.regressed",
        messages: [],
        status: "held",
        notBefore: new Date(),
      });
      return user.id;
    });
    expect(await users("remove-demo-accounts")).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("Removed temp@demo.test (demo address)."),
    });
    await inStore(databaseUrl, async ({ db }) => {
      expect(await getSubscriptions(db, "user", id)).toEqual([]);
      expect(
        await db.selectFrom("notification_deliveries").select("id").where("recipient_id", "=", id).execute(),
      ).toEqual([]);
    });
  });
});

describe("reset-factors, and an account's deletion, remove his second factors", () => {
  let databaseUrl: string;
  beforeAll(() => {
    databaseUrl = path.join(dir, "factors.db");
    process.env.DATABASE_URL = databaseUrl;
  });

  async function users(...args: string[]): Promise<Run> {
    let stdout = "";
    let stderr = "";
    const code = await main(args, { out: (l) => (stdout += `${l}\n`), err: (l) => (stderr += `${l}\n`) });
    return { code, stdout, stderr };
  }

  /** A passkey, an authenticator app and ten recovery codes for the user of `email`. */
  async function giveFactors(email: string): Promise<string> {
    return inStore(databaseUrl, async ({ db }) => {
      const user = await getUserByEmail(db, email);
      if (!user) throw new Error(`no ${email}`);
      await startTotpEnrolment(db, user, { sealKey: "a key for the cli tests" });
      await generateRecoveryCodes(db, user.id, { sealKey: "a key for the cli tests" });
      await db
        .insertInto("passkeys")
        .values({
          id: `passkey-${user.id}`,
          user_id: user.id,
          credential_id: `credential-${user.id}`,
          public_key: "cHVibGlj",
          name: "Work laptop",
          created_at: new Date().toISOString(),
        })
        .execute();
      return user.id;
    });
  }

  const factorRows = (userId: string) =>
    inStore(databaseUrl, async ({ db }) => ({
      passkeys: (await db.selectFrom("passkeys").select("id").where("user_id", "=", userId).execute()).length,
      totp: (await db.selectFrom("totp_factors").select("user_id").where("user_id", "=", userId).execute()).length,
      codes: (await db.selectFrom("recovery_codes").select("id").where("user_id", "=", userId).execute()).length,
    }));

  it("removes his passkeys, app and recovery codes, ends his sessions, audits and stores the event", async () => {
    expect(
      await users("create", "--email", "pat@example.com", "--name", "Pat", "--role", "admin", "--password", PASSWORD),
    ).toMatchObject({ code: 0 });
    const patId = await giveFactors("pat@example.com");
    expect(await factorRows(patId)).toEqual({ passkeys: 1, totp: 1, codes: 10 });
    const endpoint = await inStore(databaseUrl, async ({ db }) =>
      createEndpoint(
        db,
        { url: "http://127.0.0.1:9/hooks", events: ["account.factors_reset"] },
        { allowPrivate: true, sealKey: "a key for the cli tests" },
        null,
      ),
    );
    const before = await inStore(databaseUrl, ({ db }) => getUserByEmail(db, "pat@example.com"));

    expect(await users("reset-factors", "Pat@Example.com")).toEqual({
      code: 0,
      stdout:
        "Removed the second factors of pat@example.com (1 passkey, the authenticator app, 10 recovery codes); their sessions were ended. They sign in with their password and enrol again.\n",
      stderr: "",
    });
    expect(await factorRows(patId)).toEqual({ passkeys: 0, totp: 0, codes: 0 });
    await inStore(databaseUrl, async ({ db }) => {
      const after = await getUserByEmail(db, "pat@example.com");
      expect(after?.sessionVersion).toBe((before?.sessionVersion ?? 0) + 1);
      const { rows } = await listAudit(db, { action: "auth.factors_reset" });
      expect(rows.map((r) => [r.target?.id, r.detail?.via, r.detail?.email, r.detail?.changes])).toEqual([
        [patId, "cli", "pat@example.com", ["passkeys", "totp", "recovery_codes"]],
      ]);
      const deliveries = await db
        .selectFrom("webhook_deliveries")
        .selectAll()
        .where("endpoint_id", "=", endpoint.endpoint.id)
        .execute();
      expect(deliveries).toHaveLength(1);
      expect(JSON.stringify(deliveries[0])).toContain("account.factors_reset");
      expect(JSON.stringify(deliveries[0])).toContain("pat@example.com");
    });

    // Nothing left to remove is no mistake; an unknown person is.
    expect(await users("reset-factors", "pat@example.com")).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("(0 passkeys, no authenticator app, 0 recovery codes)"),
    });
    expect(await users("reset-factors", "nobody@example.com")).toMatchObject({ code: 1 });
    expect(await users("reset-factors")).toMatchObject({ code: 2 });
  });

  it("deleting an account (remove-demo-accounts) deletes his factor rows with it", async () => {
    expect(
      await users("create", "--email", "ada@demo.test", "--name", "Ada", "--role", "viewer", "--password", PASSWORD),
    ).toMatchObject({ code: 0 });
    const adaId = await giveFactors("ada@demo.test");
    expect(await users("remove-demo-accounts")).toMatchObject({ code: 0 });
    expect(await factorRows(adaId)).toEqual({ passkeys: 0, totp: 0, codes: 0 });
  });
});
