import { ButtonLink } from "@/components/ui/button-link";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

export default function ItemNotFound() {
  return (
    <>
      <PageHeader title="Item not found" />
      <EmptyState
        title="The item service has no item at this address"
        action={<ButtonLink href="/items">Go to the items</ButtonLink>}
      >
        It may have been removed, or belong to another seller account.
      </EmptyState>
    </>
  );
}
