import { operations } from "@/lib/api/operations";
import { defineRoute, methodsNotAllowed, ok } from "@/lib/api/route";

export const GET = defineRoute(operations.listItems, async ({ client }) => ok(await client.listItems()));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
