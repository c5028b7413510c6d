import { codeHashes, activationsOfCode } from "@/lib/api/licence-staff";
import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { defineRoute, ok } from "@/lib/api/route";

// The code is searched in a POST body: a URL ends up in proxies' access logs and browser history.
export const POST = defineRoute(operations.searchLicenceActivations, async ({ server, body }) => {
  const code = codeHashes(server, body.purchase_code);
  return ok({ code_last4: code.last4, activations: await activationsOfCode(server, code) });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
