// What accounts need at server start: the first admin from ADMIN_EMAIL/ADMIN_PASSWORD, or the demo accounts in
// demo mode. Returns the lines to print instead of printing, so the caller picks the logger (and tests read them).
import "server-only";

import type { ServerConfig } from "@/lib/config/server";
import type { Db } from "@/lib/db";

import { normalizeEmail } from "@/lib/contract/accounts";
import { DEMO_USERS, ensureFirstAdmin, getUserByEmail, seedDemoUsers, type User, type UserStoreOptions } from "./users";

export interface StartupMessage {
  level: "info" | "warn";
  text: string;
}

export interface AccountsStartup {
  firstAdmin: User | null;
  demoPassword: string | null;
  messages: StartupMessage[];
}

const CREATE_ADMIN = (email: string) => `npm run users -- create --email ${email} --name "Your Name" --role admin`;

export async function prepareAccounts(
  db: Db,
  { config, demoMode }: { config: Pick<ServerConfig, "firstAdmin">; demoMode: boolean },
  options: UserStoreOptions = {},
): Promise<AccountsStartup> {
  const messages: StartupMessage[] = [];
  let firstAdmin: User | null = null;

  if (demoMode) {
    const { password } = await seedDemoUsers(db, options);
    const accounts = DEMO_USERS.map((u) => `${u.email} (${u.role})`).join(", ");
    messages.push({ level: "info", text: `Demo accounts (password "${password}"): ${accounts}.` });
    return { firstAdmin, demoPassword: password, messages };
  }

  if (config.firstAdmin) {
    const email = normalizeEmail(config.firstAdmin.email);
    firstAdmin = await ensureFirstAdmin(db, config.firstAdmin, options);
    if (firstAdmin) {
      messages.push({
        level: "info",
        text: `Created the first admin, ${firstAdmin.email}, from ADMIN_EMAIL and ADMIN_PASSWORD.`,
      });
    } else if (await getUserByEmail(db, email)) {
      messages.push({
        level: "info",
        text: `ADMIN_EMAIL and ADMIN_PASSWORD are ignored: the store already has users, ${email} among them (change a password with: npm run users -- reset-password ${email}).`,
      });
    } else {
      // The operator expects this admin to exist; it does not, and nothing creates it here.
      messages.push({
        level: "warn",
        text: `ADMIN_EMAIL ${email} is not a user of this store, and ADMIN_PASSWORD creates an admin only in an empty store: no admin was created. Create it with: ${CREATE_ADMIN(email)}`,
      });
    }
  } else if (!(await db.selectFrom("users").select("id").limit(1).executeTakeFirst())) {
    messages.push({
      level: "warn",
      text: `No users yet: set ADMIN_EMAIL and ADMIN_PASSWORD and restart, or run: ${CREATE_ADMIN("you@example.com")}`,
    });
  }
  return { firstAdmin, demoPassword: null, messages };
}
