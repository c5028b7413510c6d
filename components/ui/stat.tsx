// One headline number for a dashboard ("Items: 2,000"), with an optional line of context. Server-renderable.
import type { ReactNode } from "react";

import styles from "./layout.module.css";

export interface StatProps {
  label: string;
  /** The number or short value, already formatted. */
  value: ReactNode;
  hint?: ReactNode;
}

export function Stat({ label, value, hint }: StatProps) {
  return (
    <div className={styles.stat}>
      <span className={styles.statLabel}>{label}</span>
      <span className={`${styles.statValue} tabular-nums`}>{value}</span>
      {hint ? <span className={styles.statHint}>{hint}</span> : null}
    </div>
  );
}
