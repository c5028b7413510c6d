import type { Metadata } from "next";

import { AreaNotConfigured } from "@/components/portal/area-not-configured";
import { PageHeader } from "@/components/ui/page-header";
import { getServerContext } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";
import { can } from "@/lib/auth/permissions";
import { configuredAreas } from "@/lib/portal/areas";
import { CHECKS_PER_ITEM_DAYS, checksPerItem } from "@/lib/purchases/history";

import { ItemChecks } from "./item-checks";
import { PurchaseChecker } from "./purchase-checker";

export const metadata: Metadata = { title: "Purchase check" };

export default async function PurchasesPage() {
  const user = await requirePageUser("purchases:validate");
  if (!(await configuredAreas()).items) return <AreaNotConfigured area="items" />;
  const server = await getServerContext();
  const perItem = await checksPerItem(server.db);
  return (
    <>
      <PageHeader
        title="Purchase check"
        description="Check a buyer's purchase code: whether it is valid, what was bought, and whether support is still active."
      />
      <PurchaseChecker linkItems={can(user, "items:read")} format={server.config.purchases.codeFormat} primary />
      <ItemChecks perItem={perItem} days={CHECKS_PER_ITEM_DAYS} linkItems={can(user, "items:read")} />
    </>
  );
}
