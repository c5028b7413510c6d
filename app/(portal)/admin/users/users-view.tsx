"use client";
// The users table with "Add user" and "Edit" dialogs (user-dialogs.tsx). Every change goes to the admin API; the
// table is reloaded from it afterwards, and a toast says what was done only once the API said so. Users who sign
// in with single sign-on show their provider and last sign-in; their role comes from the provider's groups unless
// an admin pins it here, and they have no password to set.
import { useState } from "react";
import useSWR from "swr";

import { Badge, RoleBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { LocalTime } from "@/components/ui/local-time";
import type { UserOutput } from "@/lib/contract/accounts";
import type { ApiRequestError } from "@/lib/portal/api-client";

import styles from "../../lists.module.css";
import { AddUserDialog, EditUserDialog, signInMethod, type ProviderInfo } from "./user-dialogs";

export function UsersView({
  initialUsers,
  currentUserId,
  provider = null,
}: {
  initialUsers: UserOutput[];
  currentUserId: string;
  provider?: ProviderInfo | null;
}) {
  const { data, error, isValidating, mutate } = useSWR<{ data: UserOutput[] }, ApiRequestError>("/api/admin/users", {
    fallbackData: { data: initialUsers },
  });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<UserOutput | null>(null);

  const columns: Column<UserOutput>[] = [
    {
      id: "name",
      header: "Name",
      rowHeader: true,
      priority: "primary",
      wrap: "wrap",
      cell: (user) => (user.id === currentUserId ? `${user.name} (you)` : user.name),
    },
    {
      id: "email",
      header: "Email",
      wrap: "wrap",
      fixedOrder: { direction: "asc", text: "A to Z" },
      cell: (user) => user.email,
    },
    {
      id: "role",
      header: "Role",
      wrap: "nowrap",
      cell: (user) => (
        <>
          <RoleBadge role={user.role} />
          {user.identity && user.role_pinned ? <span className={styles.muted}> pinned</span> : null}
        </>
      ),
    },
    {
      id: "status",
      header: "Access",
      priority: "primary",
      wrap: "nowrap",
      cell: (user) =>
        user.disabled ? (
          <Badge tone="error" mark="■">
            Disabled
          </Badge>
        ) : (
          <Badge tone="success" mark="●">
            Active
          </Badge>
        ),
    },
    {
      id: "sign-in",
      header: "Sign-in",
      wrap: "wrap",
      // One element: on a phone the cell is a grid of label and value, where loose pieces would each take a column.
      cell: (user) => (
        <span>
          {signInMethod(user, provider)}
          <br />
          <span className={styles.muted}>
            {user.last_sign_in_at ? (
              <>
                signed in <LocalTime iso={user.last_sign_in_at} />
              </>
            ) : (
              "not signed in yet"
            )}
          </span>
        </span>
      ),
    },
    {
      id: "created",
      header: "Added",
      wrap: "nowrap",
      cell: (user) => <LocalTime iso={user.created_at} display="date" />,
    },
    {
      id: "actions",
      header: "Actions",
      wrap: "nowrap",
      cell: (user) => (
        <Button size="sm" variant="secondary" aria-label={`Edit ${user.name}`} onClick={() => setEditing(user)}>
          Edit
        </Button>
      ),
    },
  ];

  return (
    <section aria-label="Users list">
      <div className={styles.clear}>
        <Button variant="primary" onClick={() => setAdding(true)}>
          Add user
        </Button>
      </div>
      <DataTable
        caption="Users"
        captionHidden
        columns={columns}
        rows={data?.data}
        rowKey={(user) => user.id}
        loading={isValidating}
        error={
          error
            ? {
                title: "The users could not be loaded",
                message: error.message,
                requestId: error.requestId,
                onRetry: () => void mutate(),
              }
            : null
        }
      />
      <AddUserDialog open={adding} onClose={() => setAdding(false)} onAdded={() => void mutate()} />
      <EditUserDialog
        user={editing}
        provider={provider}
        onClose={() => setEditing(null)}
        onSaved={() => void mutate()}
      />
    </section>
  );
}
