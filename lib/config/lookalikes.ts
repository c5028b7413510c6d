// Environment variables that look like ours but are not: a typo (`REPORTS_API_BASEURL`, `DATABSE_URL`,
// `database_url`) or a name in one of our families (`REPORTS_API_TOKEN`). Gatehouse would silently ignore them,
// so the start-up check names each with the closest real name. Pure: takes the names, returns findings.
import { VARIABLE_NAMES, type VariableName } from "./variables";

export interface Lookalike {
  /** The name found in the environment. */
  name: string;
  /** The known variable it most likely means. */
  suggestion: VariableName;
  /** A near-miss of the suggestion (a typo, or another letter case), not merely a name of the same family. */
  typo: boolean;
}

/** The prefixes of our variable families. A name with one of them that is not ours is a look-alike. */
const FAMILIES = [
  "GATEHOUSE_",
  "REPORTS_",
  "ITEMS_",
  "UPSTREAM_",
  "SESSION_",
  "ADMIN_",
  "PURCHASE_",
  "DEMO_",
  "DATABASE_",
  "OIDC_",
];

/** Names in our families that other software sets (a desktop session's manager, say): not look-alikes. */
const FOREIGN = new Set(["SESSION_MANAGER"]);

/**
 * Edits allowed for a typo, by the length of the name: short names are too close to ordinary ones (HOST and
 * HOME differ by two letters), so they only match in another letter case.
 */
function allowedEdits(length: number): number {
  if (length >= 10) return 2;
  if (length >= 6) return 1;
  return 0;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

function words(name: string): Set<string> {
  return new Set(name.split("_").filter(Boolean));
}

/** Among names of the same family, the one sharing most words (then the fewest edits): REPORTS_API_URL → …BASE_URL. */
function closestInFamily(upper: string, family: string): VariableName | undefined {
  const mine = words(upper);
  let best: { name: VariableName; shared: number; distance: number } | undefined;
  for (const name of VARIABLE_NAMES) {
    if (!name.startsWith(family)) continue;
    const shared = [...words(name)].filter((word) => mine.has(word)).length;
    const distance = editDistance(upper, name);
    if (!best || shared > best.shared || (shared === best.shared && distance < best.distance))
      best = { name, shared, distance };
  }
  return best?.name;
}

/** The look-alikes among `names` (the environment's variable names), in the order given. */
export function findLookalikes(names: Iterable<string>): Lookalike[] {
  const known = new Set<string>(VARIABLE_NAMES);
  const found: Lookalike[] = [];
  for (const name of names) {
    if (known.has(name) || FOREIGN.has(name)) continue;
    const upper = name.toUpperCase();
    let typo: { name: VariableName; distance: number } | undefined;
    for (const candidate of VARIABLE_NAMES) {
      const distance = editDistance(upper, candidate);
      if (distance <= allowedEdits(Math.min(upper.length, candidate.length)) && (!typo || distance < typo.distance)) {
        typo = { name: candidate, distance };
      }
    }
    if (typo) {
      found.push({ name, suggestion: typo.name, typo: true });
      continue;
    }
    const family = FAMILIES.find((prefix) => upper.startsWith(prefix));
    const suggestion = family && closestInFamily(upper, family);
    if (suggestion) found.push({ name, suggestion, typo: false });
  }
  return found;
}
