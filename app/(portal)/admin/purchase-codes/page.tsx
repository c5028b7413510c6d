// /admin/purchase-codes: a purchase over its life, as an admin sets it — the sweep that re-checks valid codes (on or
// off, which items, how often; what it has to do and the share of the item API's budget it may spend; run now), the
// support notice period, the "possibly shared" thresholds, and each item's renewal link. Read here in the API's
// shapes; changes go through the API.
import type { Metadata } from "next";

import { PageHeader } from "@/components/ui/page-header";
import { getServerContext } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";
import { lifecycleState } from "@/lib/purchases/lifecycle-admin";
import { sweepBudgetOf } from "@/lib/purchases/sweep-service";

import { FreshSwrCache } from "../../fresh-swr-cache";
import { PurchaseCodesView } from "./purchase-codes-view";

export const metadata: Metadata = { title: "Purchase codes" };

export default async function PurchaseCodesPage() {
  await requirePageUser("purchases:manage");
  const { db, config } = await getServerContext();
  const state = await lifecycleState(db, sweepBudgetOf(config.purchases));
  return (
    <>
      <PageHeader
        title="Purchase codes"
        description="A purchase over its life: re-check valid codes on a schedule to find refunded sales, foresee support running out, flag codes shared too widely, and point buyers to each item's renewal page."
      />
      <FreshSwrCache>
        <PurchaseCodesView initialState={state} />
      </FreshSwrCache>
    </>
  );
}
