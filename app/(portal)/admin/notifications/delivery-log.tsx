"use client";
// A channel's delivery log (GET /api/admin/notifications/channels/{id}/deliveries): its latest deliveries, newest
// first, each with its status, attempts and last error.
import useSWR from "swr";

import { Badge } from "@/components/ui/badge";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import type { ChannelOutput, NotificationDeliveryOutput } from "@/lib/contract/notifications";
import type { ApiRequestError } from "@/lib/portal/api-client";

const STATUS = {
  sent: { tone: "success", mark: "●", label: "Sent" },
  failed: { tone: "error", mark: "■", label: "Failed" },
  dropped: { tone: "error", mark: "■", label: "Dropped" },
  pending: { tone: "warning", mark: "▲", label: "Pending" },
  held: { tone: "warning", mark: "▲", label: "Held" },
} as const;

export function DeliveryLog({ channel }: { channel: ChannelOutput }) {
  const { data, error, mutate } = useSWR<{ data: NotificationDeliveryOutput[] }, ApiRequestError>(
    `/api/admin/notifications/channels/${channel.id}/deliveries`,
    { refreshInterval: 2_000 },
  );
  const columns: Column<NotificationDeliveryOutput>[] = [
    {
      id: "title",
      header: "Message",
      rowHeader: true,
      priority: "primary",
      wrap: "wrap",
      cell: (delivery) => delivery.title,
    },
    {
      id: "created",
      header: "Created",
      wrap: "nowrap",
      fixedOrder: { direction: "desc", text: "Newest first" },
      cell: (delivery) => <LocalTime iso={delivery.created_at} />,
    },
    {
      id: "status",
      header: "Status",
      priority: "primary",
      wrap: "nowrap",
      cell: (delivery) => {
        const status = STATUS[delivery.status];
        return (
          <Badge tone={status.tone} mark={status.mark}>
            {status.label}
          </Badge>
        );
      },
    },
    {
      id: "attempts",
      header: "Attempts",
      wrap: "wrap",
      cell: (delivery) => (
        <ol>
          {delivery.log.map((attempt) => (
            <li key={attempt.at}>
              <LocalTime iso={attempt.at} /> — {attempt.ok ? "sent" : (attempt.error ?? "not sent")}
            </li>
          ))}
        </ol>
      ),
    },
  ];
  return (
    <DataTable
      caption={`Deliveries to ${channel.name}`}
      columns={columns}
      rows={data?.data}
      rowKey={(delivery) => delivery.id}
      empty={<EmptyState title="No deliveries yet">Nothing has been sent to this channel yet.</EmptyState>}
      error={
        error
          ? {
              title: "The deliveries could not be loaded",
              message: error.message,
              requestId: error.requestId,
              onRetry: () => void mutate(),
            }
          : null
      }
    />
  );
}
