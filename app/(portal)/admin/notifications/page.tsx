// /admin/notifications: where Gatehouse tells teams — the mail server (with a test mail), what every notification
// waits for, the team channels (Slack, Microsoft Teams, e-mail: add, disable, enable, remove, "Send a test
// message"), each channel's topics and its delivery log. Says so when e-mail cannot be sent (no mail server) or links cannot be opened (no PUBLIC_ORIGIN).
import type { Metadata } from "next";

import { PageHeader } from "@/components/ui/page-header";
import { getServerContext } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";
import { channelOutput, listChannels } from "@/lib/notifications/channels";
import { notificationSettingsView } from "@/lib/notifications/settings";
import { smtpOutput } from "@/lib/notifications/smtp";
import { TOPIC_WORDS } from "@/lib/notifications/topics";
import { projectNamesForFilter } from "@/lib/portal/projects";
import { getReportsClient } from "@/lib/reports/service";
import { NOTIFICATION_TOPICS } from "@/lib/contract/values";

import { FreshSwrCache } from "../../fresh-swr-cache";
import { NotificationsView } from "./notifications-view";

export const metadata: Metadata = { title: "Notification channels" };

export default async function NotificationsPage() {
  await requirePageUser("webhooks:manage");
  const { db, config } = await getServerContext();
  const smtp = await smtpOutput(db);
  const channels = (await listChannels(db)).map((channel) => channelOutput(channel, smtp.configured));
  const settings = await notificationSettingsView(db);
  // The projects a channel's report topics may be narrowed to (none when the reports service is not set).
  const reports = await getReportsClient();
  const projects = reports ? await projectNamesForFilter(reports) : [];
  // A bulk check's end goes only to the person who started it: a channel is not offered it.
  const topics = NOTIFICATION_TOPICS.filter((topic) => topic !== "bulk.finished").map((topic) => ({
    topic,
    words: TOPIC_WORDS[topic],
  }));
  return (
    <>
      <PageHeader
        title="Notification channels"
        description="Gatehouse tells teams where they work: a Slack or Microsoft Teams channel, or a team's mailing list. People choose their own notifications in their settings; e-mail goes through the mail server set here."
      />
      <FreshSwrCache>
        <NotificationsView
          initialChannels={channels}
          initialSmtp={smtp}
          settings={settings}
          topics={topics}
          projects={projects}
          publicOriginSet={config.edge.publicOrigin !== null}
        />
      </FreshSwrCache>
    </>
  );
}
