import { ButtonLink } from "@/components/ui/button-link";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";

export default function ReportNotFound() {
  return (
    <>
      <PageHeader title="Report not found" />
      <EmptyState
        title="There is no report at this address"
        action={<ButtonLink href="/reports">Go to the reports</ButtonLink>}
      >
        It may have been deleted, or the link may be mistyped.
      </EmptyState>
    </>
  );
}
