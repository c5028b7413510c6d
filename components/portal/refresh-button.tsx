"use client";
// "Try again" for a part of a page the server rendered: asks the server to render the page again (the
// browser keeps what it has meanwhile) and shows progress while it does.
import { useRouter } from "next/navigation";
import { useTransition, type ReactNode } from "react";

import { Button } from "../ui/button";

export function RefreshButton({ children = "Try again" }: { children?: ReactNode }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  return (
    <Button
      variant="primary"
      loading={pending}
      loadingText="Trying again…"
      onClick={() => startTransition(() => router.refresh())}
    >
      {children}
    </Button>
  );
}
