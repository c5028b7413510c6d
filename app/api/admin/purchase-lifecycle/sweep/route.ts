import { methodsNotAllowed } from "@/lib/api/methods";
import { operations } from "@/lib/api/operations";
import { accepted, defineRoute } from "@/lib/api/route";
import { sweepNow } from "@/lib/purchases/sweep-service";

export const POST = defineRoute(operations.runPurchaseSweep, async () => {
  await sweepNow();
  return accepted({
    queued: true,
    message: "The sweep runs now, after any tick under way; its checks appear in the history as they are made.",
  });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodsNotAllowed(["POST"]);
