// What must last before it is said (pure: the store's row in, the next row and what to say out). A condition has a
// standing state (the last one that lasted) and a candidate (a different state seen, not lasted yet). A report's
// result lasts when it has been seen `resultsToLast` results in a row; an upstream's "down" lasts `downMinutes`.
// A change back before the candidate lasted clears it: flapping says nothing. A bad state that lasted is announced
// (alerted); the good state after it is announced once, and only then.
import type { NotificationConditionsTable } from "@/lib/db/schema";
import type { Selectable } from "kysely";

export type Condition = Omit<Selectable<NotificationConditionsTable>, "updated_at">;

/** What a change that lasted means: worse (alert), better after an alert (recover), or nothing to say. */
export type Verdict = { say: "alert"; from: string; to: string } | { say: "recover"; from: string; to: string } | null;

export interface Step {
  condition: Condition;
  verdict: Verdict;
}

/** The first state seen of something: it stands, nothing is said (there was nothing before it to compare). */
export function firstSeen(key: string, state: string, at: string): Condition {
  return { key, state, since: at, candidate: null, candidate_since: null, candidate_count: 0, alerted: 0 };
}

/**
 * One more observation (a report's result): counts towards its candidate, which stands once seen `needed` times in
 * a row. `isWorse(from, to)` says which way a change goes.
 */
export function observe(
  condition: Condition,
  state: string,
  at: string,
  needed: number,
  isWorse: (from: string, to: string) => boolean,
): Step {
  if (state === condition.state)
    return { condition: { ...condition, candidate: null, candidate_since: null, candidate_count: 0 }, verdict: null };
  const counting = condition.candidate === state;
  const next: Condition = {
    ...condition,
    candidate: state,
    candidate_since: counting ? condition.candidate_since : at,
    candidate_count: counting ? condition.candidate_count + 1 : 1,
  };
  if (next.candidate_count < Math.max(1, needed)) return { condition: next, verdict: null };
  return settle(next, isWorse);
}

/** The candidate has lasted: it becomes the state, and what that means is said. */
export function settle(condition: Condition, isWorse: (from: string, to: string) => boolean): Step {
  const from = condition.state;
  const to = condition.candidate!;
  const standing: Condition = {
    ...condition,
    state: to,
    since: condition.candidate_since ?? condition.since,
    candidate: null,
    candidate_since: null,
    candidate_count: 0,
  };
  if (isWorse(from, to)) return { condition: { ...standing, alerted: 1 }, verdict: { say: "alert", from, to } };
  if (condition.alerted === 1) return { condition: { ...standing, alerted: 0 }, verdict: { say: "recover", from, to } };
  return { condition: standing, verdict: null };
}

/**
 * Something that lasts by time (an upstream down): a bad state begins a candidate; it stands once it began at least
 * `minutes` before `now` (the tick asks); the good state clears a candidate, or recovers an announced bad state.
 */
export function observeTimed(
  condition: Condition,
  state: string,
  at: string,
  good: string,
  minutes: number,
  now: Date,
): Step {
  const isWorse = (from: string, to: string) => from === good && to !== good;
  if (state === good) {
    if (condition.state === good)
      return { condition: { ...condition, candidate: null, candidate_since: null, candidate_count: 0 }, verdict: null };
    return settle({ ...condition, candidate: good, candidate_since: at }, isWorse);
  }
  if (condition.state === state) return { condition, verdict: null };
  const next: Condition =
    condition.candidate === state
      ? condition
      : { ...condition, candidate: state, candidate_since: at, candidate_count: 1 };
  return due(next, good, minutes, now);
}

/** Whether a timed candidate has lasted by `now` (the tick's question). */
export function due(condition: Condition, good: string, minutes: number, now: Date): Step {
  if (condition.candidate === null || condition.candidate_since === null) return { condition, verdict: null };
  if (Date.parse(condition.candidate_since) + minutes * 60_000 > now.getTime()) return { condition, verdict: null };
  return settle(condition, (from, to) => from === good && to !== good);
}
