import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";

export const GET = defineRoute(operations.showAccount, async ({ client }) => ok(await client.getAccount()));
