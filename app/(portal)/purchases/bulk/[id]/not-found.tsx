import { ButtonLink } from "@/components/ui/button-link";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

export default function BulkJobNotFound() {
  return (
    <>
      <PageHeader title="Bulk check not found" />
      <EmptyState
        title="There is no bulk check at this address"
        action={<ButtonLink href="/purchases/bulk">Go to the bulk check</ButtonLink>}
      >
        Bulk checks and their results are kept for 7 days. The link may also be mistyped.
      </EmptyState>
    </>
  );
}
