// The signed-in portal: the shell (navigation for the user's role and the configured areas, who is signed in,
// theme and sign-out) around every page. Each page still checks its own permission with requirePageUser().
import type { ReactNode } from "react";

import { AlertBell } from "@/components/portal/alert-bell";
import { AppShell } from "@/components/shell/app-shell";
import { UserBadge } from "@/components/shell/user-badge";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import { requirePageUser } from "@/lib/auth/current-user";
import { can } from "@/lib/auth/permissions";
import { navigationFor } from "@/lib/portal/navigation";
import { configuredAreas } from "@/lib/portal/areas";

import { LogoutButton } from "./logout-button";
import { PortalProviders } from "./portal-providers";

export default async function PortalLayout({ children }: { children: ReactNode }) {
  const [user, areas] = await Promise.all([requirePageUser(), configuredAreas()]);
  return (
    <PortalProviders>
      <AppShell
        nav={navigationFor(user.role, areas)}
        topBarEnd={areas.reports && can(user.role, "reports:read") ? <AlertBell /> : undefined}
        user={<UserBadge name={user.name} role={user.role} detail={user.email} />}
        accountActions={
          <>
            <ThemeToggle />
            <LogoutButton />
          </>
        }
      >
        {children}
      </AppShell>
    </PortalProviders>
  );
}
