// A labelled native <select> with hint and error. Native, so keyboard, screen readers and phones work as
// people expect.
import type { SelectHTMLAttributes } from "react";

import { FieldFrame, fieldIds, type FieldCommonProps } from "./field-parts";
import styles from "./field.module.css";

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectFieldProps
  extends FieldCommonProps, Omit<SelectHTMLAttributes<HTMLSelectElement>, "name" | "id" | "required"> {
  options: readonly SelectOption[];
  /** A first option with value "" (e.g. "All projects"), for filters that may be off. */
  emptyOption?: string;
}

export function SelectField({
  name,
  label,
  hint,
  error,
  id,
  required,
  options,
  emptyOption,
  className,
  ...rest
}: SelectFieldProps) {
  const ids = fieldIds({ id, name, hint, error });
  return (
    <FieldFrame ids={ids} label={label} required={required} hint={hint} error={error}>
      <select
        {...rest}
        id={ids.controlId}
        name={name}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
        className={[styles.control, className].filter(Boolean).join(" ")}
      >
        {emptyOption !== undefined ? <option value="">{emptyOption}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}
