// What accounts need at server start: the first admin from ADMIN_EMAIL/ADMIN_PASSWORD, or the demo accounts in
// demo mode. Returns the lines to print instead of printing, so the caller picks the logger (and tests read them).
import "server-only";

import type { AuthConfig } from "@/lib/config/auth";
import type { Db } from "@/lib/db";

import { DEMO_USERS, ensureFirstAdmin, seedDemoUsers, type User, type UserStoreOptions } from "./users";

export interface AccountsStartup {
  firstAdmin: User | null;
  demoPassword: string | null;
  messages: string[];
}

export async function prepareAccounts(
  db: Db,
  { config, demoMode }: { config: Pick<AuthConfig, "firstAdmin">; demoMode: boolean },
  options: UserStoreOptions = {},
): Promise<AccountsStartup> {
  const messages: string[] = [];
  let firstAdmin: User | null = null;

  if (config.firstAdmin) {
    firstAdmin = await ensureFirstAdmin(db, config.firstAdmin, options);
    messages.push(
      firstAdmin
        ? `Created the first admin, ${firstAdmin.email}, from ADMIN_EMAIL and ADMIN_PASSWORD.`
        : "ADMIN_EMAIL and ADMIN_PASSWORD are ignored: the store already has users (change a password with: npm run users -- reset-password <email>).",
    );
  }

  if (demoMode) {
    const { password } = await seedDemoUsers(db, options);
    const accounts = DEMO_USERS.map((u) => `${u.email} (${u.role})`).join(", ");
    messages.push(`Demo accounts (password "${password}"): ${accounts}.`);
    return { firstAdmin, demoPassword: password, messages };
  }

  if (!config.firstAdmin && !(await db.selectFrom("users").select("id").limit(1).executeTakeFirst())) {
    messages.push(
      'No users yet: set ADMIN_EMAIL and ADMIN_PASSWORD and restart, or run: npm run users -- create --email you@example.com --name "Your Name" --role admin',
    );
  }
  return { firstAdmin, demoPassword: null, messages };
}
