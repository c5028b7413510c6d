import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";

export const GET = defineRoute(operations.listItems, async ({ client }) => ok(await client.listItems()));
