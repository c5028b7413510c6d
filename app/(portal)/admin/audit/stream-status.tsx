// The audit page's "Streaming" card: whether the audit log is streamed, and for each destination (a syslog server,
// an HTTP collector) where it is, how many rows it has yet to take, its last success and last error, and its last
// batches. Read from the store on the server; the collector's token is never in it (its address shows without a query).
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { DescriptionList } from "@/components/ui/description-list";
import { LocalTime } from "@/components/ui/local-time";
import type { AuditStreamsOverview } from "@/lib/audit-streams/service";

import styles from "./audit.module.css";

const NAMES = { syslog: "Syslog server", http: "HTTP collector" } as const;

const rows = (n: number) => `${n.toLocaleString("en")} ${n === 1 ? "row" : "rows"}`;

export function StreamStatus({ overview }: { overview: AuditStreamsOverview }) {
  const retention =
    overview.retentionDays === null
      ? "Audit rows are kept forever."
      : `Audit rows older than ${overview.retentionDays} days are deleted once every enabled destination has them.`;
  return (
    <Card title="Streaming" headingLevel={2} asSection>
      {!overview.on ? (
        <p>
          Streaming is off: set <code>AUDIT_SYSLOG_URL</code> or <code>AUDIT_HTTP_URL</code> to send the audit log as it
          is written. {retention}
        </p>
      ) : (
        <>
          <p>
            Streaming is on. {retention} The delivery log keeps {overview.deliveryLogRetentionDays} days.
          </p>
          {overview.destinations.map((destination) => {
            const last = destination.recent[0];
            return (
              <section
                key={destination.destination}
                aria-label={NAMES[destination.destination]}
                className={styles.stream}
              >
                <h3>
                  {NAMES[destination.destination]} <code>{destination.target}</code>{" "}
                  {destination.failures > 0 ? (
                    <Badge tone="error">Failing</Badge>
                  ) : destination.lag === 0 ? (
                    <Badge tone="success">Up to date</Badge>
                  ) : (
                    <Badge tone="info">Sending</Badge>
                  )}
                </h3>
                <DescriptionList
                  items={[
                    { term: "Waiting to be sent", description: rows(destination.lag) },
                    {
                      term: "Sent up to row",
                      description: destination.lastId === 0 ? "None yet" : `#${destination.lastId}`,
                    },
                    {
                      term: "Last success",
                      description: <LocalTime iso={destination.lastSuccessAt} display="both" missing="Never" />,
                    },
                    {
                      term: "Last error",
                      description: destination.lastError ? (
                        <>
                          {destination.lastError} (<LocalTime iso={destination.lastErrorAt} display="both" />)
                          {destination.failures > 0 ? (
                            <>
                              {" "}
                              — {destination.failures} failed {destination.failures === 1 ? "attempt" : "attempts"} in a
                              row, next <LocalTime iso={destination.nextAttemptAt} />
                            </>
                          ) : null}
                        </>
                      ) : (
                        "None"
                      ),
                    },
                    {
                      term: "Last batch",
                      description: last
                        ? `${last.status === "delivered" ? "Delivered" : "Failed"}: ${rows(last.count)} (#${last.firstId}–#${last.lastId})`
                        : "None yet",
                    },
                  ]}
                />
              </section>
            );
          })}
        </>
      )}
    </Card>
  );
}
