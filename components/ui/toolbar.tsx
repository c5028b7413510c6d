// A row of list controls (search, filters, per-page) that wraps on small screens. Server-renderable.
import type { ReactNode } from "react";

import styles from "./layout.module.css";

export function Toolbar({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <div className={styles.toolbar} role={label ? "group" : undefined} aria-label={label}>
      {children}
    </div>
  );
}
