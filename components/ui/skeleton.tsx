// Placeholders shaped like the content that is coming. They are hidden from assistive technology: whoever
// renders them also sets aria-busy on the region or shows a labelled progress indicator.
import styles from "./skeleton.module.css";

const widthClass = (index: number) => [styles.w0, styles.w1, styles.w2, styles.w3][index % 4];

/** Table rows of placeholders, for a table's first load (later loads keep the previous rows). */
export function SkeletonRows({ rows = 5, columns }: { rows?: number; columns: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, row) => (
        <tr key={row} aria-hidden="true">
          {Array.from({ length: columns }, (_, column) => (
            <td key={column} className={styles.cell}>
              <span className={`${styles.block} ${widthClass(row + column)}`} />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}
