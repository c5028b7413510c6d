// /account: the person's own time zone, then the seller account that owns the item service's key — who it is, its
// balance (not for support), its public profile.
import type { Metadata } from "next";

import { Avatar } from "@/components/media/avatar";
import { MediaImage } from "@/components/media/media-image";
import { AreaNotConfigured } from "@/components/portal/area-not-configured";
import { FailureState } from "@/components/portal/failure-state";
import { Card } from "@/components/ui/card";
import { DescriptionList } from "@/components/ui/description-list";
import { LocalTime } from "@/components/ui/local-time";
import { Money } from "@/components/ui/money";
import { PageHeader } from "@/components/ui/page-header";
import { SafeLink } from "@/components/ui/safe-link";
import { accountFor } from "@/lib/api/accounts";
import { requirePageUser } from "@/lib/auth/current-user";
import { loadFromUpstream } from "@/lib/portal/failures";
import { getUpstreams } from "@/lib/upstream";

import styles from "./account.module.css";
import { TimeZoneForm } from "./time-zone-form";

export const metadata: Metadata = { title: "Seller account" };

// Each person's own setting, whatever the item service answers.
const yourTimeZone = (
  <Card title="Your time zone" asSection className={styles.timeZone}>
    <TimeZoneForm />
  </Card>
);

export default async function AccountPage() {
  const user = await requirePageUser("items:read");
  const { items } = await getUpstreams();
  if (!items)
    return (
      <>
        {yourTimeZone}
        <AreaNotConfigured area="items" />
      </>
    );

  const loaded = await loadFromUpstream("The seller account", () => items.getAccount());
  if (!loaded.ok) {
    return (
      <>
        <PageHeader title="Seller account" />
        {yourTimeZone}
        <FailureState failure={loaded.failure} />
      </>
    );
  }
  // Support sees who the seller is, not his money: the same rule as GET /api/account.
  const account = accountFor(user, loaded.value);
  const { profile } = account;
  const socialLinks = Object.entries(profile.social_links);

  return (
    <>
      <PageHeader title="Seller account" description="The item service's account that Gatehouse's key belongs to." />
      {yourTimeZone}
      <div className={styles.layout}>
        <section className={styles.profile} aria-labelledby="profile-heading">
          <MediaImage
            src={profile.media.cover}
            alt=""
            className={styles.cover}
            fit="cover"
            priority
            fallback={<div className={styles.coverPlaceholder} />}
          />
          <div className={styles.identity}>
            <span className={styles.avatar}>
              <Avatar name={account.name.full_name} src={profile.media.avatar} size="lg" />
            </span>
            <div>
              <p className={styles.fullName}>{account.name.full_name}</p>
              <p className={styles.username}>@{account.username}</p>
            </div>
          </div>
          <div className={styles.profileText}>
            <h2 id="profile-heading">{profile.heading || "Profile"}</h2>
            {profile.description ? (
              <p className={styles.description}>{profile.description}</p>
            ) : (
              <p>No profile description.</p>
            )}
          </div>
        </section>
        <Card title="Account details" asSection>
          <DescriptionList
            items={[
              ...(account.balance === undefined
                ? []
                : [
                    {
                      term: "Balance",
                      description: <Money amount={account.balance} currency={account.currency ?? ""} />,
                    },
                  ]),
              { term: "First name", description: account.name.firstname },
              { term: "Last name", description: account.name.lastname },
              { term: "Username", description: account.username },
              { term: "Email", description: account.email },
              { term: "Contact email", description: profile.contact.email ?? "None" },
              { term: "Registered", description: <LocalTime iso={account.registered_at} display="both" /> },
            ]}
          />
        </Card>
        <Card title="Social links" asSection>
          {socialLinks.length > 0 ? (
            <ul className={styles.links}>
              {socialLinks.map(([network, link]) => (
                <li key={network}>
                  <span className={styles.network}>{network}</span> <SafeLink href={link} />
                </li>
              ))}
            </ul>
          ) : (
            <p>No social links.</p>
          )}
        </Card>
      </div>
    </>
  );
}
