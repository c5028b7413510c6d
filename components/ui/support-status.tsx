"use client";
// A purchase's support: "Active until 31 Jan 2026", "Expired on 31 Jan 2024" or "None". Whether it has
// expired depends on the reader's clock, so it waits for the browser like <LocalTime>.
import { formatUtc, supportState } from "../format";
import { useNow } from "../use-browser";

import { Badge } from "./badge";
import { LocalTime } from "./local-time";

export function SupportStatus({ supportedUntil }: { supportedUntil: string | null | undefined }) {
  const now = useNow();
  if (!supportedUntil) return <Badge tone="neutral">None</Badge>;
  if (now === null) return <span>Until {formatUtc(supportedUntil)}</span>;
  const state = supportState(supportedUntil, now);
  if (state.kind === "none") return <Badge tone="neutral">None</Badge>;
  return (
    <span>
      {state.kind === "active" ? (
        <Badge tone="success" mark="●">
          Active
        </Badge>
      ) : (
        <Badge tone="error" mark="▲">
          Expired
        </Badge>
      )}{" "}
      {state.kind === "active" ? "until" : "on"} <LocalTime iso={state.until} display="date" />
    </span>
  );
}
