// What the navigation shows: only the areas the user's role may use, and only the upstream areas that are
// configured. Pure, so the rule is tested without a server; the portal layout calls it.
import { can, type Caller } from "@/lib/auth/permissions";
import { type Permission } from "@/lib/contract/values";

export interface ConfiguredAreas {
  reports: boolean;
  items: boolean;
}

export interface PortalSection {
  href: string;
  label: string;
  /** What the role must be allowed; none: every signed-in user. */
  permission?: Permission;
  /** The upstream area the section shows; hidden when it is not configured. */
  area?: keyof ConfiguredAreas;
  /** Sections that belong together (the purchase checker's pages) are listed under this heading. */
  group?: string;
  /** The letter that goes there after `g` (keyboard shortcuts, listed by `?`). */
  shortcut: string;
}

export interface NavigationEntry {
  href: string;
  label: string;
  group?: string;
  shortcut: string;
}

export const PORTAL_SECTIONS: readonly PortalSection[] = [
  { href: "/", label: "Dashboard", shortcut: "d" },
  { href: "/reports", label: "Reports", permission: "reports:read", area: "reports", shortcut: "r" },
  { href: "/projects", label: "Projects", permission: "reports:read", area: "reports", shortcut: "p" },
  { href: "/items", label: "Items", permission: "items:read", area: "items", shortcut: "i" },
  {
    href: "/purchases",
    label: "Check a code",
    permission: "purchases:validate",
    area: "items",
    group: "Purchases",
    shortcut: "c",
  },
  {
    href: "/purchases/bulk",
    label: "Bulk check",
    permission: "purchases:validate",
    area: "items",
    group: "Purchases",
    shortcut: "b",
  },
  {
    href: "/purchases/history",
    label: "History",
    permission: "purchases:validate",
    area: "items",
    group: "Purchases",
    shortcut: "h",
  },
  {
    href: "/purchases/support-ending",
    label: "Support ending",
    permission: "purchases:validate",
    area: "items",
    group: "Purchases",
    shortcut: "n",
  },
  { href: "/account", label: "Seller account", permission: "items:read", area: "items", shortcut: "s" },
  { href: "/account/notifications", label: "Notifications", shortcut: "m" },
  { href: "/account/security", label: "Security", shortcut: "y" },
  { href: "/tokens", label: "API tokens", shortcut: "t" },
  { href: "/admin/users", label: "Users", permission: "users:manage", shortcut: "u" },
  { href: "/admin/audit", label: "Audit log", permission: "audit:read", shortcut: "a" },
  { href: "/admin/webhooks", label: "Webhooks", permission: "webhooks:manage", shortcut: "w" },
  { href: "/admin/notifications", label: "Notification channels", permission: "webhooks:manage", shortcut: "g" },
  { href: "/admin/upstream", label: "Upstream connections", permission: "upstream:manage", shortcut: "k" },
  { href: "/admin/helpdesk", label: "Helpdesk", permission: "webhooks:manage", area: "items", shortcut: "e" },
  {
    href: "/admin/purchase-codes",
    label: "Purchase codes",
    permission: "purchases:manage",
    area: "items",
    shortcut: "o",
  },
  { href: "/admin/licences", label: "Licences", permission: "licences:manage", area: "items", shortcut: "l" },
];

export function mayUse(
  section: Pick<PortalSection, "permission" | "area">,
  caller: Caller,
  areas: ConfiguredAreas,
): boolean {
  if (section.permission && !can(caller, section.permission)) return false;
  return section.area === undefined || areas[section.area];
}

export function navigationFor(caller: Caller, areas: ConfiguredAreas): NavigationEntry[] {
  return PORTAL_SECTIONS.filter((section) => mayUse(section, caller, areas)).map(({ href, label, group, shortcut }) =>
    group ? { href, label, group, shortcut } : { href, label, shortcut },
  );
}
