import type { Metadata } from "next";

import { AreaNotConfigured } from "@/components/portal/area-not-configured";
import { PageHeader } from "@/components/ui/page-header";
import { getServerContext } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";
import { can } from "@/lib/auth/permissions";
import { helpScoutConversationUrl, ticketFilter, type HelpdeskSystem } from "@/lib/contract/values";
import { configuredAreas } from "@/lib/portal/areas";
import { readTicket } from "@/lib/portal/purchase-history-params";
import { CHECKS_PER_ITEM_DAYS, checksPerItem } from "@/lib/purchases/history";

import { ItemChecks } from "./item-checks";
import { PurchaseChecker, type HelpdeskTicketRef } from "./purchase-checker";

export const metadata: Metadata = { title: "Purchase check" };

/** The helpdesk ticket of `?ticket=system:id` (the checker opened from a helpdesk's card); anything else is ignored. */
function ticketOf(value: string | string[] | undefined): HelpdeskTicketRef | null {
  const filter = readTicket(typeof value === "string" ? value : undefined);
  if (!filter) return null;
  const split = filter.indexOf(":");
  const system = filter.slice(0, split) as HelpdeskSystem;
  const id = filter.slice(split + 1);
  return system === "helpscout" ? { system, id, url: helpScoutConversationUrl(id) } : { system, id };
}

export default async function PurchasesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePageUser("purchases:validate");
  const ticket = ticketOf((await searchParams).ticket);
  if (!(await configuredAreas()).items) return <AreaNotConfigured area="items" />;
  const server = await getServerContext();
  const perItem = await checksPerItem(server.db);
  return (
    <>
      <PageHeader
        title="Purchase check"
        description="Check a buyer's purchase code: whether it is valid, what was bought, and whether support is still active."
      />
      {ticket ? (
        <p role="note" data-testid="checker-ticket">
          For ticket {ticketFilter(ticket)}: each check made here is kept with it in the history.
        </p>
      ) : null}
      <PurchaseChecker
        linkItems={can(user, "items:read")}
        format={server.config.purchases.codeFormat}
        primary
        ticket={ticket}
      />
      <ItemChecks perItem={perItem} days={CHECKS_PER_ITEM_DAYS} linkItems={can(user, "items:read")} />
    </>
  );
}
