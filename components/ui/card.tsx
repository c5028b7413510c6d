// A bordered box for one topic of a page ("Latest reports", "Purchase"), with an optional heading and
// actions. Server-renderable.
import { useId, type ReactNode } from "react";

import styles from "./layout.module.css";

export interface CardProps {
  title?: ReactNode;
  /** Heading level of the title in the page outline (default 2). */
  headingLevel?: 2 | 3;
  /** Buttons or links on the title's line. */
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  /** Makes the card a labelled region (landmark), for cards people jump to. */
  asSection?: boolean;
}

export function Card({ title, headingLevel = 2, actions, children, className, asSection }: CardProps) {
  const Heading = `h${headingLevel}` as const;
  const Tag = asSection ? "section" : "div";
  const titleId = useId();
  return (
    <Tag
      className={[styles.card, className].filter(Boolean).join(" ")}
      aria-labelledby={asSection && title ? titleId : undefined}
    >
      {title || actions ? (
        <div className={styles.cardHeader}>
          {title ? (
            <Heading id={titleId} className={styles.cardTitle}>
              {title}
            </Heading>
          ) : (
            <span />
          )}
          {actions ? <div className={styles.actions}>{actions}</div> : null}
        </div>
      ) : null}
      {children}
    </Tag>
  );
}
