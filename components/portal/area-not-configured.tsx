// Shown instead of a page whose upstream area this Gatehouse does not have (its navigation is hidden too, so
// people arrive here only through an old link). Server-renderable.
import { AREA_WORDS, type Area } from "@/lib/contract/areas";

import { EmptyState } from "../ui/empty-state";
import { ButtonLink } from "../ui/button-link";
import { PageHeader } from "../ui/page-header";

const TITLES: Record<Area, string> = {
  reports: "Reports are not available",
  items: "Items and purchases are not available",
};

export function AreaNotConfigured({ area }: { area: Area }) {
  const title = TITLES[area];
  const { aService: service, variables: names } = AREA_WORDS[area];
  const variables = `${names.baseUrl} and ${names.key}`;
  return (
    <>
      <PageHeader title={title} />
      <EmptyState
        title={`This Gatehouse is not connected to ${service}`}
        action={<ButtonLink href="/">Go to the dashboard</ButtonLink>}
      >
        An operator can connect one by setting {variables}, then restarting Gatehouse.
      </EmptyState>
    </>
  );
}
