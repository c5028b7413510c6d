// /purchases/support-ending: the valid purchases whose support ends within N days (the admin's notice period
// unless asked), soonest first, by their codes' last 4 characters — who to remind before their support runs out.
// Read from the store here, in the shapes of GET /api/purchases/support-expiring; the window, the item and the page
// live in the URL (a plain GET form), so a link to it is the same list.
import type { Metadata } from "next";
import Link from "next/link";

import { Button } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorSummary } from "@/components/ui/error-summary";
import { LocalTime } from "@/components/ui/local-time";
import { PageHeader } from "@/components/ui/page-header";
import { Pagination } from "@/components/ui/pagination";
import { SafeLink } from "@/components/ui/safe-link";
import { TextField } from "@/components/ui/text-field";
import { getServerContext } from "@/lib/auth/access";
import { requirePageUser } from "@/lib/auth/current-user";
import { can } from "@/lib/auth/permissions";
import { SupportExpiringQuerySchema, type SupportExpiringRow } from "@/lib/contract/purchase-sweep";
import { supportExpiring } from "@/lib/purchases/lifecycle-admin";

import formStyles from "../../forms.module.css";

export const metadata: Metadata = { title: "Support ending" };

const PATH = "/purchases/support-ending";

function columns(linkItems: boolean): ReadonlyArray<Column<SupportExpiringRow>> {
  return [
    {
      id: "code",
      header: "Code",
      rowHeader: true,
      priority: "primary",
      wrap: "nowrap",
      cell: (row) => <code>…{row.code_last4}</code>,
    },
    {
      id: "item",
      header: "Item",
      priority: "primary",
      cell: (row) => (linkItems ? <Link href={`/items/${row.item.id}`}>{row.item.name}</Link> : row.item.name),
    },
    { id: "licence", header: "Licence", cell: (row) => row.license_type },
    {
      id: "until",
      header: "Support ends",
      wrap: "nowrap",
      fixedOrder: { direction: "asc", text: "Soonest first" },
      cell: (row) => <LocalTime iso={row.supported_until} display="date" />,
    },
    {
      id: "left",
      header: "Days left",
      priority: "primary",
      wrap: "nowrap",
      cell: (row) =>
        row.days_left === 0 ? "Less than a day" : `${row.days_left} day${row.days_left === 1 ? "" : "s"}`,
    },
    {
      id: "checked",
      header: "Last checked",
      wrap: "nowrap",
      cell: (row) => <LocalTime iso={row.last_checked_at} display="both" />,
    },
    {
      id: "renew",
      header: "Renewal",
      cell: (row) =>
        row.renewal_url ? (
          <SafeLink href={row.renewal_url} missing="—">
            Renewal page
          </SafeLink>
        ) : (
          "—"
        ),
    },
  ];
}

/** The URL's values as the API's query reads them: the first of a repeated one, an empty one left out. */
function queryOf(params: Record<string, string | string[] | undefined>): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of ["days", "item_id", "page", "per_page"]) {
    const value = params[name];
    const text = Array.isArray(value) ? value[0] : value;
    if (text !== undefined && text !== "") picked[name] = text;
  }
  return picked;
}

export default async function SupportEndingPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePageUser("purchases:validate");
  const raw = queryOf(await searchParams);
  const parsed = SupportExpiringQuerySchema.safeParse(raw);
  const problems: Record<string, string> = parsed.success
    ? {}
    : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join("."), issue.message]));
  const { db } = await getServerContext();
  const list = await supportExpiring(db, parsed.success ? parsed.data : {});
  const hrefFor = (page: number) => {
    const next = new URLSearchParams({ ...(parsed.success ? raw : {}), page: String(page) });
    return `${PATH}?${next.toString()}`;
  };
  return (
    <>
      <PageHeader
        title="Support ending"
        description="Valid purchases whose support ends soon, soonest first: remind the buyer, or point them to the item's renewal page. Known from the checks made here and the sweep's re-checks."
      />
      {Object.keys(problems).length > 0 ? (
        <ErrorSummary
          title="Some of the list's settings were not understood; showing the defaults"
          errors={problems}
          labels={{ days: "Days", item_id: "Item id", page: "Page", per_page: "Per page" }}
          ids={{ days: "field-support-days", item_id: "field-support-item" }}
        />
      ) : null}
      <form method="get" action={PATH} className={formStyles.inline} aria-label="Which purchases">
        <TextField
          id="field-support-days"
          name="days"
          type="number"
          label="Support ends within (days)"
          defaultValue={raw.days ?? String(list.meta.days)}
        />
        <TextField id="field-support-item" name="item_id" label="Item id (optional)" defaultValue={raw.item_id ?? ""} />
        <div>
          <Button type="submit" variant="secondary">
            Show
          </Button>
        </div>
      </form>
      <DataTable
        caption={`Support ending within ${list.meta.days} days`}
        columns={columns(can(user, "items:read"))}
        rows={list.data}
        rowKey={(row) => `${row.code_last4}-${row.item.id}-${row.supported_until}`}
        empty={
          <EmptyState title="No support ends in this window">
            Purchases appear here once a check found them valid. See <Link href="/purchases/history">the history</Link>{" "}
            for every check.
          </EmptyState>
        }
      />
      <Pagination
        page={list.meta.page}
        lastPage={list.meta.last_page}
        total={list.meta.total}
        perPage={list.meta.per_page}
        hrefFor={hrefFor}
      />
    </>
  );
}
