import { operations } from "@/lib/api/operations";
import { defineRoute } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";

// Liveness only: no configuration lookup, no upstream call.
export const GET = defineRoute(operations.health, async () => ({ status: 200, json: { status: "ok" } }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
