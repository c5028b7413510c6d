// "Nothing here yet" with what to do about it, e.g. title "No reports match", body "Clear the filters or
// create a report", action a <ButtonLink>.
import type { ReactNode } from "react";

import styles from "./state.module.css";

export interface EmptyStateProps {
  title: string;
  children?: ReactNode;
  /** Buttons or links: what the person can do next. */
  action?: ReactNode;
  /** Heading level of the title within the page; a paragraph when omitted. */
  headingLevel?: 2 | 3 | 4;
}

export function EmptyState({ title, children, action, headingLevel }: EmptyStateProps) {
  const Title = headingLevel ? (`h${headingLevel}` as const) : "p";
  return (
    <div className={styles.state}>
      <Title className={styles.title}>{title}</Title>
      {children ? <div className={styles.body}>{children}</div> : null}
      {action ? <div className={styles.actions}>{action}</div> : null}
    </div>
  );
}
