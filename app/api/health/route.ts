import { operations } from "@/lib/api/operations";
import { defineRoute, methodsNotAllowed } from "@/lib/api/route";

// Liveness only: no configuration lookup, no upstream call.
export const GET = defineRoute(operations.health, async () => ({ status: 200, json: { status: "ok" } }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
