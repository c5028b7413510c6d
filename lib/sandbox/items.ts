// Area B, the item API, served under /market. Read-only to its clients: the sellers' data is regenerated from the
// seed on every start and at POST /__sandbox/reset; only the control API changes it (a sale reversed, a support
// date moved), in memory. Errors use the document's envelope {"status":"error","msg":...}; statuses are our
// assumption.
import { z } from "zod";

import { json, type Area, type Handler, type Reply, type SandboxRequest } from "./area";
import { isoSeconds, seedSellers, type Purchase, type Seller, type Sellers } from "./seed";
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

/**
 * Area B's data as it stands: the sellers from the seed, and the sales the marketplace reversed (refunded). A
 * reversed sale stays in its seller's purchases, so reinstating it gives back the same purchase; validating it
 * answers like an unknown code meanwhile.
 */
export class ItemsState {
  sellers: Sellers;
  /** Purchase codes of reversed sales (POST /__sandbox/purchases/{code} with "reversed": true). */
  readonly reversed = new Set<string>();

  constructor(private readonly mainSellerItems: number) {
    this.sellers = seedSellers(mainSellerItems);
  }

  /** Back to the seed: every control change undone, reversals included. */
  reseed(): void {
    this.sellers = seedSellers(this.mainSellerItems);
    this.reversed.clear();
  }

  /** The seller whose sale this code is, or undefined when no seller sold it (whether reversed or not). */
  sellerOf(code: string): Seller | undefined {
    return Object.values(this.sellers).find((seller) => seller.purchases.has(code));
  }
}

export const purchaseControlSchema = z
  .strictObject({
    /** true: the marketplace reversed (refunded) the sale, validating it answers 404; false: reinstated. */
    reversed: z.boolean().optional(),
    /** ISO 8601 (Z or an offset), kept in UTC whole seconds as the seed's; null: bought without support. */
    supported_until: z.iso.datetime({ offset: true }).nullable().optional(),
  })
  .refine((change) => change.reversed !== undefined || change.supported_until !== undefined, {
    message: 'Give "reversed", "supported_until" or both.',
  });
type PurchaseControl = z.output<typeof purchaseControlSchema>;

/** The control API's "change a sale": null when no seller sold this code. */
export function setPurchase(
  state: ItemsState,
  code: string,
  change: PurchaseControl,
): { purchase: Purchase; reversed: boolean } | null {
  const seller = state.sellerOf(code);
  const current = seller?.purchases.get(code);
  if (!seller || !current) return null;
  let purchase = current;
  if (change.supported_until !== undefined) {
    // Rebuilt, not edited, so that supported_until keeps its place among the fields (after item) when it comes
    // back, as the upstream orders them; Map.set on a known key keeps the sale's place among the others.
    const { supported_until: _old, downloaded, date, ...before } = current;
    purchase = {
      ...before,
      ...(change.supported_until !== null && { supported_until: isoSeconds(Date.parse(change.supported_until)) }),
      downloaded,
      date,
    };
    seller.purchases.set(code, purchase);
  }
  if (change.reversed === true) state.reversed.add(code);
  if (change.reversed === false) state.reversed.delete(code);
  return { purchase, reversed: state.reversed.has(code) };
}

export function createItemsArea(opts: {
  state: ItemsState;
  keys: ReadonlyMap<string, SellerProfile>;
  prefix: string;
}): Area {
  // The route is matched (404, 405) before the key is checked, as web frameworks do.
  const authenticated =
    (handler: SellerHandler): Handler =>
    (req) => {
      const key = apiKeyOf(req);
      const profile = key === undefined ? undefined : opts.keys.get(key);
      return profile ? handler(req, opts.state.sellers[profile]) : INVALID_KEY;
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
    // A reversed sale answers exactly as a code nobody sold.
    const purchase = opts.state.reversed.has(code.data) ? undefined : seller.purchases.get(code.data);
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
