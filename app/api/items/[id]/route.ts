import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";

export const GET = defineRoute(operations.showItem, async ({ client, params }) => ok(await client.getItem(params.id)));
