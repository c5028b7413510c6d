// The range of a trend view as links (30, 90, 365 days): a plain link per range keeps the URL the state, and works
// without JavaScript. The current one is marked with aria-current.
import Link from "next/link";

import { TREND_DAYS, type TrendDays } from "@/lib/contract/values";

import styles from "./trend-range.module.css";

export function TrendRange({ current, href }: { current: TrendDays; href: (days: TrendDays) => string }) {
  return (
    <nav aria-label="Range" className={styles.range}>
      {TREND_DAYS.map((days) => (
        <Link
          key={days}
          href={href(days)}
          aria-current={days === current ? "page" : undefined}
          className={days === current ? styles.current : styles.link}
          scroll={false}
        >
          {days} days
        </Link>
      ))}
    </nav>
  );
}
