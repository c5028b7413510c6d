// Also served at /.well-known/gatehouse-licence-keys.json (a rewrite in next.config.mjs: Next routes no folder
// whose name starts with a dot).
import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute } from "@/lib/api/route";
import { publishedKeys } from "@/lib/licences/signing";

export const GET = defineRoute(operations.licenceKeys, async ({ server }) => ({
  status: 200,
  json: { keys: await publishedKeys(server.db, server.config.dataKey) },
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["GET"]);
