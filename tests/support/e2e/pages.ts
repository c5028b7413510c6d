// Every page of the portal, as the layout spec (tests/e2e/layout.spec.ts) and `npm run lighthouse`
// (scripts/lighthouse.ts) visit it: who opens it, the heading that says it has loaded, whether it is a list.
// Both read this one list, so a new page is checked at every width, theme and form factor once it is added here
// (`find app -name page.tsx` lists the routes).
import type { Role } from "@/lib/contract/values";
import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";

export interface PortalPage {
  /** How tests and reports name the page. */
  name: string;
  path: string;
  /** The level-1 heading shown once the page is there. */
  heading: string | RegExp;
  /** Who opens it: admin unless said; null for nobody signed in. */
  role: Role | null;
  /** A list page: it shows at least one table, and each table has a primary column. */
  list?: boolean;
  /** The HTTP status the page is answered with, when not 200 (the 403 and 404 pages). */
  status?: number;
}

/** The codes of the bulk check each run makes to show a results page (one valid, one expired, one without support). */
export const BULK_CODES = [FIXED_PURCHASE_CODES.active, FIXED_PURCHASE_CODES.expired, FIXED_PURCHASE_CODES.none];

const page = (name: string, path: string, heading: string | RegExp, more: Partial<PortalPage> = {}): PortalPage => ({
  name,
  path,
  heading,
  role: "admin",
  ...more,
});

/** Where a path names the bulk check made for the run (its id is known only once the portal runs). */
const BULK_JOB = ":job";

export const PORTAL_PAGES: readonly PortalPage[] = [
  page("sign-in", "/login", "Sign in to Gatehouse", { role: null }),
  page("dashboard", "/", "Dashboard"),
  page("dashboard (support)", "/", "Dashboard", { role: "support" }),
  page("reports", "/reports", "Reports", { list: true }),
  page("a report", "/reports/1", "Report #1"),
  page("new report", "/reports/new", "New report"),
  page("projects", "/projects", "Projects", { list: true }),
  page("a project's overview", "/projects/acme-tools.io/overview", "acme-tools.io"),
  page("items", "/items", "Items", { list: true }),
  page("an item", "/items/100005", "Acoustic Happy Ukulele"),
  page("purchase check", "/purchases", "Purchase check"),
  page("bulk check", "/purchases/bulk", "Bulk purchase check", { list: true }),
  page("a bulk check's results", `/purchases/bulk/${BULK_JOB}`, "Bulk purchase check", { list: true }),
  page("purchase history", "/purchases/history", "Purchase check history", { list: true }),
  page("support ending", "/purchases/support-ending", "Support ending", { role: "support" }),
  page("alerts", "/alerts?status=all", "Alerts"),
  page("API tokens", "/tokens", "API tokens"),
  page("seller account", "/account", "Seller account"),
  page("notifications", "/account/notifications", "Notifications", { role: "viewer" }),
  page("security", "/account/security", "Security", { role: "viewer" }),
  page("users", "/admin/users", "Users", { list: true }),
  page("audit log", "/admin/audit", "Audit log", { list: true }),
  page("upstream connections", "/admin/upstream", "Upstream connections"),
  page("webhooks", "/admin/webhooks", "Webhooks"),
  page("notification channels", "/admin/notifications", "Notification channels"),
  page("helpdesk", "/admin/helpdesk", "Helpdesk"),
  page("purchase codes", "/admin/purchase-codes", "Purchase codes"),
  page("licences", "/admin/licences", "Licences"),
  page("403", "/admin/users", "You may not open this page", { role: "viewer", status: 403 }),
  page("404", "/no-such-page", "Page not found", { status: 404 }),
];

/** The page's path, with `bulkJob` the id of a finished bulk check the admin made. */
export const pathOf = (target: PortalPage, bulkJob: string): string => target.path.replace(BULK_JOB, bulkJob);
