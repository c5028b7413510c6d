// A <fieldset> of native radio buttons with a legend, hint and error. Arrow keys move between options (the
// browser does it, because they share a name). The first radio carries the id ErrorSummary links to.
import type { ChangeEvent, ReactNode } from "react";

import { fieldIds, FieldError, FieldHint, RequiredMark, type FieldCommonProps } from "./field-parts";
import styles from "./field.module.css";

export interface RadioOption {
  value: string;
  label: ReactNode;
  hint?: ReactNode;
}

export interface RadioGroupProps extends FieldCommonProps {
  options: readonly RadioOption[];
  /** Controlled value; use with onChange. */
  value?: string;
  defaultValue?: string;
  onChange?: (value: string, event: ChangeEvent<HTMLInputElement>) => void;
  /** Options side by side instead of stacked. */
  inline?: boolean;
  disabled?: boolean;
}

export function RadioGroup({
  name,
  label,
  hint,
  error,
  id,
  required,
  options,
  value,
  defaultValue,
  onChange,
  inline,
  disabled,
}: RadioGroupProps) {
  const ids = fieldIds({ id, name, hint, error });
  return (
    <fieldset className={`${styles.fieldset} ${styles.field}`} aria-describedby={ids.describedBy} disabled={disabled}>
      <legend className={styles.legend}>
        {label}
        {required ? <RequiredMark /> : null}
      </legend>
      <FieldHint id={ids.hintId}>{hint}</FieldHint>
      <div className={[styles.options, inline ? styles.inline : undefined].filter(Boolean).join(" ")}>
        {options.map((option, index) => {
          const optionId = index === 0 ? ids.controlId : `${ids.controlId}-${index}`;
          const optionHintId = option.hint ? `${optionId}-hint` : undefined;
          return (
            <label key={option.value} htmlFor={optionId} className={styles.option}>
              <input
                type="radio"
                id={optionId}
                name={name}
                value={option.value}
                required={required}
                aria-describedby={optionHintId}
                checked={value !== undefined ? value === option.value : undefined}
                defaultChecked={value === undefined ? defaultValue === option.value : undefined}
                onChange={
                  onChange ? (event: ChangeEvent<HTMLInputElement>) => onChange(option.value, event) : undefined
                }
              />
              <span>
                {option.label}
                {option.hint ? (
                  <span id={optionHintId} className={styles.optionHint}>
                    {option.hint}
                  </span>
                ) : null}
              </span>
            </label>
          );
        })}
      </div>
      <FieldError id={ids.errorId}>{error}</FieldError>
    </fieldset>
  );
}
