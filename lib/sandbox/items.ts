// Area B, the item API, served under /market. Read-only: the sellers' data is regenerated from the seed on
// every start. Errors use the document's envelope {"status":"error","msg":...}; statuses are our assumption.
import { z } from "zod";

import { json, type Area, type Handler, type Reply, type SandboxRequest } from "./area";
import type { Seller, Sellers } from "./seed";
import type { SellerProfile } from "./contract";

function failure(status: number, msg: string): Reply {
  return json(status, { status: "error", msg });
}

// The document's one message for a bad request: 401 for a missing or unknown key, 400 for a missing parameter.
const INVALID_KEY = failure(401, "Invalid request");

const apiKeySchema = z.string().min(1);
const itemIdSchema = z
  .string()
  .regex(/^\d{1,15}$/)
  .transform(Number);
const purchaseCodeSchema = z.string().min(1).max(255);

/**
 * The api_key travels in the query string of a GET and in the form body of a POST, nowhere else: a key in a
 * POST's URL is ignored, which lets tests prove that the gateway keeps keys out of URLs it posts to.
 */
function apiKeyOf(req: SandboxRequest): string | undefined {
  const source = req.method === "POST" ? req.form : req.query;
  const parsed = apiKeySchema.safeParse(source?.get("api_key") ?? undefined);
  return parsed.success ? parsed.data : undefined;
}

type SellerHandler = (req: SandboxRequest, seller: Seller) => Reply;

export function createItemsArea(opts: {
  sellers: Sellers;
  keys: ReadonlyMap<string, SellerProfile>;
  prefix: string;
}): Area {
  // The route is matched (404, 405) before the key is checked, as web frameworks do.
  const authenticated =
    (handler: SellerHandler): Handler =>
    (req) => {
      const key = apiKeyOf(req);
      const profile = key === undefined ? undefined : opts.keys.get(key);
      return profile ? handler(req, opts.sellers[profile]) : INVALID_KEY;
    };

  const accountDetails: SellerHandler = (_req, seller) => json(200, { status: "success", data: seller.account });

  const allItems: SellerHandler = (_req, seller) =>
    seller.items.length ? json(200, { status: "success", items: seller.items }) : failure(404, "No Items Found");

  const oneItem: SellerHandler = (req, seller) => {
    const itemId = itemIdSchema.safeParse(req.query.get("item_id") ?? undefined);
    if (!itemId.success) return failure(400, "Invalid request");
    const item = seller.items.find((candidate) => candidate.id === itemId.data);
    return item ? json(200, { status: "success", item }) : failure(404, "Item Not Found");
  };

  const validatePurchase: SellerHandler = (req, seller) => {
    const code = purchaseCodeSchema.safeParse(req.form?.get("purchase_code") ?? undefined);
    if (!code.success) return failure(400, "Invalid request");
    const purchase = seller.purchases.get(code.data);
    return purchase ? json(200, { status: "success", data: { purchase } }) : failure(404, "Invalid purchase code");
  };

  return {
    prefix: opts.prefix,
    routes: [
      { pattern: /^\/api\/account\/details\/?$/, methods: { GET: authenticated(accountDetails) } },
      { pattern: /^\/api\/items\/all\/?$/, methods: { GET: authenticated(allItems) } },
      { pattern: /^\/api\/items\/item\/?$/, methods: { GET: authenticated(oneItem) } },
      { pattern: /^\/api\/purchases\/validation\/?$/, methods: { POST: authenticated(validatePurchase) } },
    ],
    notFound: () => failure(404, "Not Found"),
    methodNotAllowed: (_req, allowed) => ({
      ...failure(405, "Method Not Allowed"),
      headers: { allow: allowed.join(", ") },
    }),
    errorBody: (_status, message) => ({ status: "error", msg: message }),
  };
}
