// Label/value pairs for detail pages (a report, a purchase, an item): a <dl> that is two columns on wide
// screens and stacked on phones. Server-renderable.
import type { ReactNode } from "react";

import styles from "./layout.module.css";

export interface DescriptionItem {
  term: ReactNode;
  description: ReactNode;
}

export function DescriptionList({ items }: { items: readonly DescriptionItem[] }) {
  return (
    <dl className={styles.descriptionList}>
      {items.map((item, index) => (
        <div key={index} className={styles.descriptionRow}>
          <dt>{item.term}</dt>
          <dd>{item.description}</dd>
        </div>
      ))}
    </dl>
  );
}
