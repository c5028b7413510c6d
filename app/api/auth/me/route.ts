import { currentSessionOutput } from "@/lib/api/accounts";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";

// The wrapper has checked the session, and renewed it when due: expires_at is what the cookie now holds.
export const GET = defineRoute(operations.me, async ({ user, session, sessionSettings }) => ok(currentSessionOutput(user, session, sessionSettings)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
