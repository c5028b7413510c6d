// Shown instead of a page whose upstream area this Gatehouse does not have (its navigation is hidden too, so
// people arrive here only through an old link). Server-renderable.
import { EmptyState } from "../ui/empty-state";
import { ButtonLink } from "../ui/button-link";
import { PageHeader } from "../ui/page-header";

const AREAS = {
  reports: { title: "Reports are not available", service: "a reports service", variables: "REPORTS_API_BASE_URL and REPORTS_API_KEY" },
  items: { title: "Items and purchases are not available", service: "an item service", variables: "ITEMS_API_BASE_URL and ITEMS_API_KEY" },
} as const;

export function AreaNotConfigured({ area }: { area: keyof typeof AREAS }) {
  const { title, service, variables } = AREAS[area];
  return (
    <>
      <PageHeader title={title} />
      <EmptyState title={`This Gatehouse is not connected to ${service}`} action={<ButtonLink href="/">Go to the dashboard</ButtonLink>}>
        An operator can connect one by setting {variables}, then restarting Gatehouse.
      </EmptyState>
    </>
  );
}
