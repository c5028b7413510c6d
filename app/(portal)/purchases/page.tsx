import type { Metadata } from "next";

import { AreaNotConfigured } from "@/components/portal/area-not-configured";
import { PageHeader } from "@/components/ui/page-header";
import { getServerContext } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";
import { can } from "@/lib/auth/permissions";
import { helpScoutConversationUrl, ticketFilter, ticketOfFilter } from "@/lib/contract/values";
import { configuredAreas } from "@/lib/portal/areas";
import { CHECKS_PER_ITEM_DAYS, checksPerItem } from "@/lib/purchases/checks-per-item";

import { ItemChecks } from "./item-checks";
import { PurchaseChecker, type HelpdeskTicketRef } from "./purchase-checker";

export const metadata: Metadata = { title: "Purchase check" };

/** The helpdesk ticket of `?ticket=system:id` (the checker opened from a helpdesk's card); anything else is ignored. */
function ticketOf(value: string | string[] | undefined): HelpdeskTicketRef | null {
  const ticket = typeof value === "string" ? ticketOfFilter(value) : null;
  if (!ticket) return null;
  return ticket.system === "helpscout" ? { ...ticket, url: helpScoutConversationUrl(ticket.id) } : ticket;
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
