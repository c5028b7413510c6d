// Messages the senders' tests render: one regression, a repeat of it, and a digest with sections.
import type { NotificationMessage } from "@/lib/notifications/message";

export const worse = (page: string): NotificationMessage => ({
  topic: "report.regressed",
  title: `acme.io/${page} went from good to bad`,
  text: "Its result dropped <and> stayed so for 2 results & more.",
  since: "2026-12-28T09:00:00.000Z",
  link: `/reports/${page.length}`,
  tone: "bad",
  group: "acme.io",
  facts: [{ label: "Project", value: "acme.io" }],
});

export const digest: NotificationMessage = {
  topic: "digest",
  title: "Your week in Gatehouse",
  text: "12 checks this week.",
  since: "2026-12-21T00:00:00.000Z",
  link: "/",
  tone: "info",
  sections: [
    { heading: "Got worse", lines: [{ text: "acme.io/pricing: good → bad", link: "/reports/3" }] },
    { heading: "Open alerts", lines: [] },
  ],
};
