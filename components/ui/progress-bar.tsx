// A thin indeterminate progress bar: the quiet "loading" signal above a table whose previous rows stay.
import styles from "./progress-bar.module.css";

export interface ProgressBarProps {
  /** What is loading, for assistive technology, e.g. "Loading reports". */
  label?: string;
  className?: string;
}

export function ProgressBar({ label = "Loading", className }: ProgressBarProps) {
  return (
    <span role="progressbar" aria-label={label} className={[styles.track, className].filter(Boolean).join(" ")}>
      <span className={styles.bar} />
    </span>
  );
}
