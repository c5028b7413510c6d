import { operations } from "@/lib/api/operations";
import { defineRoute, methodsNotAllowed, ok } from "@/lib/api/route";

export const GET = defineRoute(operations.showItem, async ({ client, params }) => ok(await client.getItem(params.id)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
