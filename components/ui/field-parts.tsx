// The parts every form field shares: ids, label, hint and error, and the aria wiring between them. The
// control's id defaults to fieldId(name), which is what <ErrorSummary> links to.
import type { ReactNode } from "react";

import styles from "./field.module.css";

export interface FieldCommonProps {
  /** The form field name; also gives the default id, fieldId(name). */
  name: string;
  label: ReactNode;
  /** Help shown under the label, e.g. "Must start with https://". */
  hint?: ReactNode;
  /** The problem with the current value, e.g. the gateway's `error.fields[name]`. */
  error?: string;
  id?: string;
  required?: boolean;
}

/** The id a field gets when none is given, e.g. fieldId("url") === "field-url". */
export function fieldId(name: string): string {
  return `field-${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;
}

export function fieldIds({ id, name, hint, error }: Pick<FieldCommonProps, "id" | "name" | "hint" | "error">) {
  const controlId = id ?? fieldId(name);
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  return {
    controlId,
    hintId,
    errorId,
    describedBy: [hintId, errorId].filter(Boolean).join(" ") || undefined,
  };
}

export function RequiredMark() {
  return <span className={styles.required}> (required)</span>;
}

export function FieldHint({ id, children }: { id: string | undefined; children: ReactNode }) {
  if (!id || !children) return null;
  return (
    <p id={id} className={styles.hint}>
      {children}
    </p>
  );
}

export function FieldError({ id, children }: { id: string | undefined; children: ReactNode }) {
  if (!id || !children) return null;
  return (
    <p id={id} className={styles.error}>
      <span aria-hidden="true">⚠ </span>
      {children}
    </p>
  );
}

/** A field's frame: its label (with the required mark), its hint, the control, and its error. */
export function FieldFrame({
  ids,
  label,
  required,
  hint,
  error,
  children,
}: Pick<FieldCommonProps, "label" | "required" | "hint" | "error"> & {
  ids: ReturnType<typeof fieldIds>;
  children: ReactNode;
}) {
  return (
    <div className={styles.field}>
      <label htmlFor={ids.controlId} className={styles.label}>
        {label}
        {required ? <RequiredMark /> : null}
      </label>
      <FieldHint id={ids.hintId}>{hint}</FieldHint>
      {children}
      <FieldError id={ids.errorId}>{error}</FieldError>
    </div>
  );
}
