// A subscriber's topics as checkboxes named "topics" (a person's own, a team channel's): each for every project;
// the narrower subscriptions made through the API (one project, one rule) are listed, and kept by the form.
import type { NotificationSubscription } from "@/lib/contract/notification-subscriptions";
import type { NotificationTopic } from "@/lib/contract/values";

export interface TopicChoice {
  topic: NotificationTopic;
  words: string;
}

/** The subscriptions for every project (checked boxes), and the narrower ones the form keeps as they are. */
export function splitSubscriptions(subscriptions: readonly NotificationSubscription[]): {
  everywhere: ReadonlySet<NotificationTopic>;
  narrowed: NotificationSubscription[];
} {
  return {
    everywhere: new Set(subscriptions.filter((s) => s.project === null && s.rule === null).map((s) => s.topic)),
    narrowed: subscriptions.filter((s) => s.project !== null || s.rule !== null),
  };
}

export function TopicChecklist({
  legend,
  topics,
  subscriptions,
  error,
}: {
  legend: string;
  topics: readonly TopicChoice[];
  subscriptions: readonly NotificationSubscription[];
  error?: string;
}) {
  const { everywhere, narrowed } = splitSubscriptions(subscriptions);
  return (
    <fieldset>
      <legend>{legend}</legend>
      {topics.map(({ topic, words }) => (
        <label key={topic} style={{ display: "block" }}>
          <input type="checkbox" name="topics" value={topic} defaultChecked={everywhere.has(topic)} /> {words}
        </label>
      ))}
      {narrowed.length > 0 ? (
        <p>
          Also kept (set through the API):{" "}
          {narrowed
            .map((s) => `${s.topic}${s.project ? ` for ${s.project}` : ""}${s.rule ? ` (${s.rule})` : ""}`)
            .join(", ")}
          .
        </p>
      ) : null}
      {error ? <p role="alert">{error}</p> : null}
    </fieldset>
  );
}
