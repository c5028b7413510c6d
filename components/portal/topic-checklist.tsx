"use client";
// A subscriber's topics as checkboxes named "topics" (a person's own, a team channel's). A report topic, once
// checked, is for every project or for the projects chosen (from the projects list the page is given, and those
// already subscribed to), and for the project's own alert rule or one chosen (any drop, only a drop to bad), as the
// API takes them. What the form cannot show (two rules for one topic, a project beside "every project") is listed
// and kept as it is. subscriptionsFromForm reads the form back into the API's list.
import { useState } from "react";

import { SelectField } from "@/components/ui/select-field";

import type { NotificationSubscription } from "@/lib/contract/notification-subscriptions";
import type { NotificationTopic } from "@/lib/contract/values";

export interface TopicChoice {
  topic: NotificationTopic;
  words: string;
}

type Rule = NotificationSubscription["rule"];

/** How one topic is subscribed, as the form shows it. */
interface TopicState {
  projects: string[] | null; // null: every project
  rule: Rule;
}

const RULE_WORDS: ReadonlyArray<{ value: string; label: string }> = [
  { value: "", label: "The project's own alert rule" },
  { value: "any", label: "Any drop" },
  { value: "to_bad", label: "Only a drop to bad" },
];

/** Topics that narrow to projects and a rule (the API's rule: report topics only). */
const narrows = (topic: NotificationTopic) => topic.startsWith("report.");

/** Each topic as the form shows it, and the subscriptions it cannot show (kept as they are). */
export function splitSubscriptions(subscriptions: readonly NotificationSubscription[]): {
  chosen: ReadonlyMap<NotificationTopic, TopicState>;
  kept: NotificationSubscription[];
} {
  const chosen = new Map<NotificationTopic, TopicState>();
  const kept: NotificationSubscription[] = [];
  const topics = [...new Set(subscriptions.map((s) => s.topic))];
  for (const topic of topics) {
    const own = subscriptions.filter((s) => s.topic === topic);
    if (!narrows(topic)) {
      if (own.some((s) => s.project === null && s.rule === null)) chosen.set(topic, { projects: null, rule: null });
      kept.push(...own.filter((s) => s.project !== null || s.rule !== null));
      continue;
    }
    // Every project wins when there is one (the plainest of its rules); else the projects of its first rule.
    const every = own.find((s) => s.project === null && s.rule === null) ?? own.find((s) => s.project === null);
    const shown = every
      ? [every]
      : own.filter((s) => s.rule === own[0]!.rule).sort((a, b) => (a.project ?? "").localeCompare(b.project ?? ""));
    chosen.set(topic, {
      projects: every ? null : shown.map((s) => s.project!),
      rule: shown[0]!.rule,
    });
    kept.push(...own.filter((s) => !shown.includes(s)));
  }
  return { chosen, kept };
}

/**
 * The subscriptions the form says (with those it keeps), or the sentence of what is missing: a report topic for
 * "Only these projects" with none chosen.
 */
export function subscriptionsFromForm(
  form: FormData,
  topics: readonly TopicChoice[],
  kept: readonly NotificationSubscription[],
): { subscriptions: NotificationSubscription[] } | { problem: string } {
  const checked = new Set(form.getAll("topics").map(String));
  const subscriptions: NotificationSubscription[] = [];
  for (const { topic, words } of topics) {
    if (!checked.has(topic)) continue;
    if (!narrows(topic)) {
      subscriptions.push({ topic, project: null, rule: null });
      continue;
    }
    const ruleValue = String(form.get(`rule:${topic}`) ?? "");
    const rule: Rule = ruleValue === "any" || ruleValue === "to_bad" ? ruleValue : null;
    if (form.get(`scope:${topic}`) !== "some") {
      subscriptions.push({ topic, project: null, rule });
      continue;
    }
    const projects = form.getAll(`project:${topic}`).map(String);
    if (projects.length === 0) return { problem: `Choose a project for “${words}”, or every project.` };
    for (const project of projects) subscriptions.push({ topic, project, rule });
  }
  return { subscriptions: [...subscriptions, ...kept] };
}

const describe = (s: NotificationSubscription) =>
  `${s.topic} ${s.project ? `for ${s.project}` : "for every project"}${s.rule ? ` (${s.rule})` : ""}`;

function Narrowing({
  choice,
  state,
  projects,
}: {
  choice: TopicChoice;
  state: TopicState | undefined;
  projects: readonly string[];
}) {
  const [some, setSome] = useState(Boolean(state?.projects));
  const { topic, words } = choice;
  const offered = [...new Set([...projects, ...(state?.projects ?? [])])].sort((a, b) => a.localeCompare(b));
  return (
    <fieldset style={{ marginInlineStart: "1.5rem" }}>
      <legend>Which projects and rule for “{words}”</legend>
      <label style={{ display: "block" }}>
        <input
          type="radio"
          name={`scope:${topic}`}
          value="every"
          checked={!some}
          onChange={(event) => event.target.checked && setSome(false)}
        />{" "}
        Every project
      </label>
      <label style={{ display: "block" }}>
        <input
          type="radio"
          name={`scope:${topic}`}
          value="some"
          checked={some}
          onChange={(event) => event.target.checked && setSome(true)}
        />{" "}
        Only these projects
      </label>
      {some ? (
        offered.length > 0 ? (
          <div style={{ marginInlineStart: "1.5rem" }}>
            {offered.map((project) => (
              <label key={project} style={{ display: "block" }}>
                <input
                  type="checkbox"
                  name={`project:${topic}`}
                  value={project}
                  defaultChecked={state?.projects?.includes(project) ?? false}
                />{" "}
                {project}
              </label>
            ))}
          </div>
        ) : (
          <p>The reports service lists no projects to choose from.</p>
        )
      ) : null}
      <SelectField name={`rule:${topic}`} label="Alert rule" defaultValue={state?.rule ?? ""} options={RULE_WORDS} />
    </fieldset>
  );
}

export function TopicChecklist({
  legend,
  topics,
  subscriptions,
  projects,
  error,
}: {
  legend: string;
  topics: readonly TopicChoice[];
  subscriptions: readonly NotificationSubscription[];
  /** The projects a report topic may be narrowed to (the reports service's list). */
  projects: readonly string[];
  error?: string;
}) {
  const { chosen, kept } = splitSubscriptions(subscriptions);
  const [checked, setChecked] = useState<ReadonlySet<NotificationTopic>>(() => new Set(chosen.keys()));
  const toggle = (topic: NotificationTopic, on: boolean) =>
    setChecked((before) => {
      const after = new Set(before);
      if (on) after.add(topic);
      else after.delete(topic);
      return after;
    });
  return (
    <fieldset>
      <legend>{legend}</legend>
      {topics.map((choice) => (
        <div key={choice.topic}>
          <label style={{ display: "block" }}>
            <input
              type="checkbox"
              name="topics"
              value={choice.topic}
              checked={checked.has(choice.topic)}
              onChange={(event) => toggle(choice.topic, event.target.checked)}
            />{" "}
            {choice.words}
          </label>
          {narrows(choice.topic) && checked.has(choice.topic) ? (
            <Narrowing choice={choice} state={chosen.get(choice.topic)} projects={projects} />
          ) : null}
        </div>
      ))}
      {kept.length > 0 ? <p>Also kept (set through the API): {kept.map(describe).join(", ")}.</p> : null}
      {error ? <p role="alert">{error}</p> : null}
    </fieldset>
  );
}
