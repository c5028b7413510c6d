// A part of a page whose upstream failed while the server rendered it: what failed, what to try, and a
// "Try again" that renders the page again. Server-renderable.
import { ErrorState } from "../ui/error-state";
import { RefreshButton } from "./refresh-button";

export interface FailureStateProps {
  failure: { title: string; message: string; retryable: boolean };
  headingLevel?: 2 | 3 | 4;
}

export function FailureState({ failure, headingLevel }: FailureStateProps) {
  return (
    <ErrorState title={failure.title} headingLevel={headingLevel} action={<RefreshButton />}>
      {failure.message}
    </ErrorState>
  );
}
