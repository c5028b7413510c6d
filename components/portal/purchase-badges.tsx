// The purchase checker's status words as badges: a check's outcome (history, bulk results) and a bulk job's
// status. The word is always there; the mark is a second cue beside the colour. Server-renderable.
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { CODE_STATUS_LABELS, JOB_STATUS_LABELS } from "@/lib/portal/purchase-bulk";
import { type BulkCodeStatus, type BulkJobStatus } from "@/lib/contract/values";

const CODE_LOOK: Record<BulkCodeStatus, { tone: BadgeTone; mark: string }> = {
  valid: { tone: "success", mark: "●" },
  invalid: { tone: "error", mark: "▲" },
  revoked: { tone: "error", mark: "⊘" },
  failed: { tone: "warning", mark: "◆" },
  pending: { tone: "outline", mark: "○" },
  cancelled: { tone: "neutral", mark: "■" },
};

/** A code's outcome: Valid / Invalid / Revoked / Failed (and, in a bulk job, Not checked yet / Cancelled). */
export function CodeStatusBadge({ status }: { status: BulkCodeStatus }) {
  const look = CODE_LOOK[status];
  return (
    <Badge tone={look.tone} mark={look.mark}>
      {CODE_STATUS_LABELS[status]}
    </Badge>
  );
}

/** A valid purchase whose support had expired: real, so neither the green of "valid" nor the red of "invalid". */
export function SupportExpiredBadge() {
  return (
    <Badge tone="info" mark="◇">
      Valid, support expired
    </Badge>
  );
}

/** A code refused before any call (it cannot be a purchase code): no verdict on a purchase, so not "Invalid". */
export function NotACodeBadge() {
  return (
    <Badge tone="neutral" mark="✕">
      Not a purchase code
    </Badge>
  );
}

const JOB_LOOK: Record<BulkJobStatus, { tone: BadgeTone; mark: string }> = {
  queued: { tone: "outline", mark: "○" },
  running: { tone: "info", mark: "◐" },
  waiting: { tone: "warning", mark: "◆" },
  done: { tone: "success", mark: "●" },
  cancelled: { tone: "neutral", mark: "■" },
};

export function JobStatusBadge({ status }: { status: BulkJobStatus }) {
  const look = JOB_LOOK[status];
  return (
    <Badge tone={look.tone} mark={look.mark}>
      {JOB_STATUS_LABELS[status]}
    </Badge>
  );
}
