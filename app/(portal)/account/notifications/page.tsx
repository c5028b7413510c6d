// /account/notifications: what the person is told of where he works (by e-mail), his quiet hours and his weekly
// digest, read in his time zone (the one he picked on the account page; UTC until he picks one, since the server
// cannot know his browser's).
import type { Metadata } from "next";

import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { getServerContext } from "@/lib/auth/access";
import { can } from "@/lib/auth/permissions";
import { requirePageUser } from "@/lib/auth/current-user";
import { getPreferences, getSubscriptions } from "@/lib/notifications/subscriptions";
import { TOPIC_WORDS, topicsFor } from "@/lib/notifications/topics";
import { projectNamesForFilter } from "@/lib/portal/projects";
import { getReportsClient } from "@/lib/reports/service";

import { NotificationsForm } from "./notifications-form";

export const metadata: Metadata = { title: "Notifications" };

export default async function NotificationsPage() {
  const user = await requirePageUser();
  const { db } = await getServerContext();
  const [subscriptions, preferences] = await Promise.all([
    getSubscriptions(db, "user", user.id),
    getPreferences(db, user),
  ]);
  const topics = topicsFor(user).map((topic) => ({ topic, words: TOPIC_WORDS[topic] }));
  // The projects his report topics may be narrowed to (none when he cannot read reports or the service is not set).
  const reports = can(user, "reports:read") ? await getReportsClient() : null;
  const projects = reports ? await projectNamesForFilter(reports) : [];
  return (
    <>
      <PageHeader
        title="Notifications"
        description="What Gatehouse tells you by e-mail: changes once they have lasted, repeats merged into one message, nothing in your quiet hours, and a weekly digest."
      />
      <Card title="Your notifications" asSection>
        <NotificationsForm
          topics={topics}
          subscriptions={subscriptions}
          preferences={preferences}
          projects={projects}
        />
      </Card>
    </>
  );
}
