// A project's reports in one short line: their number and a bar split good / decent / bad. The bar is a picture
// (role="img") whose name is the sentence it shows, "12 good, 3 decent, 1 bad", so nobody needs the colours.
// Server-renderable.
import { REPORT_RESULTS, type ReportResult } from "@/lib/contract/values";

import resultColours from "@/components/ui/result-colours.module.css";
import styles from "./result-mix-bar.module.css";

export type ResultCounts = Record<ReportResult, number>;

/** "12 good, 3 decent, 1 bad" (results with none are left out; "no results" when all are). */
export function mixText(counts: ResultCounts): string {
  const parts = REPORT_RESULTS.filter((result) => counts[result] > 0).map((result) => `${counts[result]} ${result}`);
  return parts.length > 0 ? parts.join(", ") : "no results";
}

export function ResultMixBar({ counts }: { counts: ResultCounts }) {
  const total = REPORT_RESULTS.reduce((sum, result) => sum + counts[result], 0);
  return (
    <span className={styles.mix}>
      <span className={`${styles.count} tabular-nums`}>
        {total} {total === 1 ? "report" : "reports"}
      </span>
      <span className={styles.bar} role="img" aria-label={mixText(counts)} title={mixText(counts)}>
        {REPORT_RESULTS.filter((result) => counts[result] > 0).map((result) => (
          <span
            key={result}
            className={`${styles.segment} ${resultColours[result]}`}
            style={{ flexGrow: counts[result] }}
          />
        ))}
      </span>
    </span>
  );
}
