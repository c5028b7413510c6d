// "Rows per page" with the upstream's allowed sizes. Render it from a client component (it takes onChange).
// The caller puts the choice in the URL and goes back to page 1: the old page number means something else at
// another size.
import { useId } from "react";

import { PER_PAGE_CHOICES } from "@/lib/contract/values";

import styles from "./per-page-select.module.css";

export interface PerPageSelectProps {
  value: number;
  onChange: (perPage: number) => void;
  options?: readonly number[];
  label?: string;
  disabled?: boolean;
}

export function PerPageSelect({
  value,
  onChange,
  options = PER_PAGE_CHOICES,
  label = "Rows per page",
  disabled,
}: PerPageSelectProps) {
  const id = useId();
  return (
    <div className={styles.wrapper}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className={styles.select}
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(Number(event.target.value))}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </div>
  );
}
