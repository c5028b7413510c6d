// A failure in place of content: what failed (title), what to try (children), a retry slot, and the request
// id so support can find the server's log line. role="alert" so the failure is announced when it appears.
import type { ReactNode } from "react";

import styles from "./state.module.css";

export interface ErrorStateProps {
  /** What failed, e.g. "The reports could not be loaded". */
  title: string;
  /** What to try, e.g. the gateway's message and "Try again in a minute". */
  children?: ReactNode;
  /** Usually <Button onClick={retry}>Try again</Button>. */
  action?: ReactNode;
  requestId?: string;
  headingLevel?: 2 | 3 | 4;
}

export function ErrorState({ title, children, action, requestId, headingLevel }: ErrorStateProps) {
  const Title = headingLevel ? (`h${headingLevel}` as const) : "p";
  return (
    <div role="alert" className={`${styles.state} ${styles.error}`}>
      <Title className={styles.title}>{title}</Title>
      {children ? <div className={styles.body}>{children}</div> : null}
      {requestId ? (
        <p className={styles.detail}>
          Request id: <code>{requestId}</code>
        </p>
      ) : null}
      {action ? <div className={styles.actions}>{action}</div> : null}
    </div>
  );
}
