// The colours' key of the result charts (ResultChart, TrendChart and their placeholders): one swatch per result.
// Hidden from screen readers: each chart says its numbers in words or in a table.
import { REPORT_RESULTS } from "@/lib/contract/values";
import { RESULT_LABELS } from "./badge";
import styles from "./result-legend.module.css";
import resultColours from "./result-colours.module.css";

export function ResultLegend() {
  return (
    <ul className={styles.legend} aria-hidden="true">
      {REPORT_RESULTS.map((result) => (
        <li key={result}>
          <span className={`${styles.swatch} ${resultColours[result]}`} />
          {RESULT_LABELS[result]}
        </li>
      ))}
    </ul>
  );
}
