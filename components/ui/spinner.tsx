// A spinning ring. With a label it announces itself (role="status"); with label={null} it is decoration
// beside text that already says what is happening (e.g. inside a busy button).
import styles from "./spinner.module.css";

export interface SpinnerProps {
  size?: "sm" | "md" | "lg";
  /** Text for assistive technology, shown visually only if showLabel; null when the context says it. */
  label?: string | null;
  showLabel?: boolean;
}

export function Spinner({ size = "md", label = "Loading…", showLabel = false }: SpinnerProps) {
  const ring = <span className={`${styles.spinner} ${styles[size]}`} aria-hidden="true" />;
  if (label === null) return ring;
  return (
    <span role="status" className={styles.wrapper}>
      {ring}
      <span className={showLabel ? undefined : "visually-hidden"}>{label}</span>
    </span>
  );
}
