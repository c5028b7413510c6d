// Filled in by issue 36's part for this file (see ./factors.ts).
import type { OperationSpec } from "./types";

export const totpOperations = {} as const satisfies Record<string, OperationSpec>;
