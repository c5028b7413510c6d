// The signed-in portal: the shell (navigation for the user's role and the configured areas, who is signed in,
// theme and sign-out) around every page, and for admins the banner of an upstream key rejected. Each page still checks its own permission with requirePageUser().
import type { ReactNode } from "react";

import { AlertBell } from "@/components/portal/alert-bell";
import { AppShell } from "@/components/shell/app-shell";
import { UserBadge } from "@/components/shell/user-badge";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import { KeyRejectedBanner, type RejectedKey } from "@/components/portal/key-rejected-banner";
import { rejectedKeys } from "@/lib/api/upstream-keys";
import { requirePageUser } from "@/lib/auth/current-user";
import { can } from "@/lib/auth/permissions";
import { getPersonTimeZone } from "@/lib/auth/time-zone";
import { AREA_WORDS } from "@/lib/contract/areas";
import { navigationFor } from "@/lib/portal/navigation";
import { configuredAreas } from "@/lib/portal/areas";

import { LogoutButton } from "./logout-button";
import { PortalProviders } from "./portal-providers";

export default async function PortalLayout({ children }: { children: ReactNode }) {
  const [user, areas, timeZone] = await Promise.all([requirePageUser(), configuredAreas(), getPersonTimeZone()]);
  // Admins see on every page that an upstream rejected its key (from the key ring's last poll: no query here).
  const rejected: RejectedKey[] = can(user, "upstream:manage")
    ? (await rejectedKeys().catch(() => [])).map((r) => ({
        api: AREA_WORDS[r.area].api.replace(/ \(area [AB]\)$/, ""),
        at: r.at,
        fingerprint: r.fingerprint,
        inEnvironment: r.source === "environment",
      }))
    : [];
  return (
    <PortalProviders timeZone={timeZone}>
      <AppShell
        nav={navigationFor(user, areas)}
        topBarEnd={areas.reports && can(user, "reports:read") ? <AlertBell /> : undefined}
        user={<UserBadge name={user.name} role={user.role} detail={user.email} />}
        accountActions={
          <>
            <ThemeToggle />
            <LogoutButton />
          </>
        }
      >
        <KeyRejectedBanner rejected={rejected} />
        {children}
      </AppShell>
    </PortalProviders>
  );
}
