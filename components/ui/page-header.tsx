// The top of a page: its one <h1>, a line of description, and the page's main actions. Server-renderable.
import type { ReactNode } from "react";

import styles from "./layout.module.css";

export interface PageHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  /** E.g. <ButtonLink href="/reports/new" variant="primary">New report</ButtonLink>. */
  actions?: ReactNode;
  /** Above the title, e.g. a "‹ Reports" back link. */
  back?: ReactNode;
}

export function PageHeader({ title, description, actions, back }: PageHeaderProps) {
  return (
    <header className={styles.pageHeader}>
      {back ? <div className={styles.back}>{back}</div> : null}
      <div className={styles.pageHeaderRow}>
        <div className={styles.pageHeaderText}>
          <h1 className={styles.pageTitle}>{title}</h1>
          {description ? <p className={styles.pageDescription}>{description}</p> : null}
        </div>
        {actions ? <div className={styles.actions}>{actions}</div> : null}
      </div>
    </header>
  );
}
