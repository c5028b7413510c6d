import { operations } from "@/lib/api/operations";
import { defineRoute, noContent } from "@/lib/api/route";
import { methodsNotAllowed } from "@/lib/api/methods";

// Next hands over the decoded segment ("my shop"); the client encodes it again for the upstream.
export const DELETE = defineRoute(operations.deleteProject, async ({ client, params }) => {
  await client.deleteProject(params.project);
  return noContent();
});

export const { GET, POST, PUT, PATCH, OPTIONS } = methodsNotAllowed(["DELETE"]);
