// What `npm run lighthouse` (scripts/lighthouse.ts) makes of Lighthouse's results, kept apart from the
// browser so that it can be unit-tested: each run's category scores (0–100), the audit that cost each category
// the most, the table printed at the end and the lines that name every score below the threshold.

/** The categories the issue asks for. SEO is left out: see SEO_LEFT_OUT. */
export const CATEGORIES = ["performance", "accessibility", "best-practices"] as const;
export type Category = (typeof CATEGORIES)[number];

export const SEO_LEFT_OUT =
  "SEO is not audited: every page but the sign-in page needs a session, and the portal asks search engines not to index it (robots noindex), so SEO's main audits would only restate that choice.";

/** The lowest score any page may have in any category, at mobile and at desktop. */
export const THRESHOLD = 95;

/**
 * Runs of a page whose performance score fell below the threshold: performance varies from run to run (CPU
 * load, timers), so such a page is measured this many times and the median run counts. Lighthouse's guidance on
 * variability finds the median of five runs about twice as stable as one (lighthouse-ci's numberOfRuns); three
 * let a busy 2-core CI machine fail a page at 94, 94, 98. A page slow in three runs of five still fails.
 */
export const RUNS_WHEN_SLOW = 5;

export const FORM_FACTORS = ["mobile", "desktop"] as const;
export type FormFactor = (typeof FORM_FACTORS)[number];

/** The part of a Lighthouse result (LHR) read here. */
export interface LighthouseResult {
  runtimeError?: { code: string; message: string };
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] } | undefined>;
  audits: Record<string, { title: string; score: number | null; displayValue?: string } | undefined>;
}

export interface CategoryScore {
  /** 0–100, or null when Lighthouse could not score it (the run failed). */
  score: number | null;
  /** The audit that lost the category the most points, e.g. "Cumulative Layout Shift (0.48)". */
  costliest: string | null;
}

export interface RunScores {
  page: string;
  formFactor: FormFactor;
  /** Why Lighthouse could not audit the page, if it could not. */
  error?: string;
  categories: Record<Category, CategoryScore>;
}

/** The scores of one run, with the costliest audit of each category (weight × lost score). */
export function scoresOf(page: string, formFactor: FormFactor, lhr: LighthouseResult): RunScores {
  const categories = {} as Record<Category, CategoryScore>;
  for (const id of CATEGORIES) {
    const category = lhr.categories[id];
    let costliest: string | null = null;
    let highestCost = 0;
    for (const ref of category?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || ref.weight === 0) continue;
      const cost = ref.weight * (1 - audit.score);
      if (cost > highestCost) {
        highestCost = cost;
        costliest = audit.displayValue ? `${audit.title} (${audit.displayValue})` : audit.title;
      }
    }
    categories[id] = { score: category?.score == null ? null : Math.round(category.score * 100), costliest };
  }
  return { page, formFactor, error: lhr.runtimeError ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` : undefined, categories };
}

const SHORT: Record<Category, string> = { performance: "perf", accessibility: "a11y", "best-practices": "best" };

/**
 * One table: a row per page, a column per form factor and category, e.g.
 *   page        mobile perf  a11y  best  desktop perf  a11y  best
 *   dashboard          79    100   96            99    100    96
 * A score below the threshold is marked with "!"; a run that failed shows "–".
 */
export function scoreTable(runs: readonly RunScores[], threshold = THRESHOLD): string {
  const pages = [...new Set(runs.map((run) => run.page))];
  const header = ["page", ...FORM_FACTORS.flatMap((formFactor) => CATEGORIES.map((category, index) => (index === 0 ? `${formFactor} ${SHORT[category]}` : SHORT[category])))];
  const rows = pages.map((page) => [
    page,
    ...FORM_FACTORS.flatMap((formFactor) => {
      const run = runs.find((candidate) => candidate.page === page && candidate.formFactor === formFactor);
      return CATEGORIES.map((category) => {
        const score = run?.categories[category].score;
        if (score === undefined) return "";
        if (score === null) return "–";
        return score < threshold ? `${score}!` : String(score);
      });
    }),
  ]);
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((row) => row[column]!.length)));
  return [header, ...rows]
    .map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ").trimEnd())
    .join("\n");
}

/** A line for each score below the threshold (or run that failed), naming the page, form factor, category and costliest audit. */
export function failures(runs: readonly RunScores[], threshold = THRESHOLD): string[] {
  const lines: string[] = [];
  for (const run of runs) {
    if (run.error) {
      lines.push(`${run.page} (${run.formFactor}): Lighthouse could not audit it — ${run.error}`);
      continue;
    }
    for (const category of CATEGORIES) {
      const { score, costliest } = run.categories[category];
      if (score === null) lines.push(`${run.page} (${run.formFactor}) ${category}: no score`);
      else if (score < threshold) lines.push(`${run.page} (${run.formFactor}) ${category} ${score} < ${threshold}${costliest ? ` — costliest audit: ${costliest}` : ""}`);
    }
  }
  return lines;
}

/** Whether a run's performance is below the threshold (it is then measured RUNS_WHEN_SLOW times). */
export const slowRun = (run: RunScores, threshold = THRESHOLD): boolean =>
  !run.error && run.categories.performance.score !== null && run.categories.performance.score < threshold;

/** The run with the median performance score (of an odd number of runs; of an even one, the lower middle). */
export function medianRun(runs: readonly RunScores[]): RunScores {
  if (runs.length === 0) throw new Error("medianRun: no runs");
  const sorted = [...runs].sort((a, b) => (a.categories.performance.score ?? -1) - (b.categories.performance.score ?? -1));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}
