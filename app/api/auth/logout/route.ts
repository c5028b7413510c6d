import { operations } from "@/lib/api/operations";
import { defineRoute, noContent } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";
import { clearSession } from "@/lib/auth/session";
import { revokeSessions } from "@/lib/auth/users";

// Signing out ends every session of the user (his session version moves on), not only this browser's: a copied
// cookie must not outlive the sign-out. Without a valid session there is nothing to end; the cookie is cleared.
export const POST = defineRoute(operations.logout, async ({ user, accounts, sessionSettings, cookies, audit }) => {
  if (user) {
    await revokeSessions(accounts.db, user.id);
    await audit({ action: "auth.logout", target: { type: "user", id: user.id }, outcome: "success" });
  }
  clearSession(cookies, sessionSettings);
  return noContent();
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
