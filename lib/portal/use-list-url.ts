// The URL as the state of a list view, for client components. Two ways to move:
// - "shallow" (reports, projects): window.history.pushState/replaceState, as Next documents it ("Using the native
//   History API": the calls integrate with the router, so usePathname and useSearchParams follow), the server is
//   not asked again, and the view fetches its rows from /api with SWR, keeping the previous rows meanwhile.
// - "server" (items, filtered and paged in the portal): router.push/replace inside a transition, so the server
//   renders the next page while the current one stays; `pending` says it is loading.
// Either way every view is a real URL: reload and shared links reproduce it, Back returns to the previous view.
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useOptimistic, useRef, useTransition, type RefObject } from "react";

export type ListNavigationMode = "shallow" | "server";

/**
 * Whether the component has mounted. Next's router takes in the native history calls from an effect of its root;
 * a click made while the page hydrates can be replayed before that, and would change the URL without the view.
 * React runs a commit's effects in one pass, children first: once this component's first effect has run, the
 * router's root has run its own (in the same pass, or in an earlier commit). Until then a shallow move is made as
 * a server navigation instead.
 */
function useMounted(): RefObject<boolean> {
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
  }, []);
  return mounted;
}

export interface ListUrl<Q> {
  query: Q;
  /** The href of a view (for links: pagination, "clear filters"). */
  hrefFor: (query: Q) => string;
  /** A new history entry (filters, sort, page size, page). */
  push: (query: Q) => void;
  /** Replaces the current entry (search while typing, so Back does not step through every keystroke). */
  replace: (query: Q) => void;
  /** A server navigation to the next view is under way (always in "server" mode; rarely in "shallow"). */
  pending: boolean;
}

export function useListUrl<Q>(
  parse: (params: URLSearchParams) => Q,
  toQueryString: (query: Q) => string,
  mode: ListNavigationMode,
): ListUrl<Q> {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const router = useRouter();
  const mounted = useMounted();
  const [pending, startTransition] = useTransition();

  const urlQuery = useMemo(() => parse(new URLSearchParams(searchParams.toString())), [parse, searchParams]);
  // Until a move lands (a server navigation, or the router taking in a history call) the URL's query is the old one:
  // a second change made meanwhile (a date typed right after an outcome was chosen) would be built on it and undo
  // the first. The view's query is the one asked for until the move lands, then the URL's (React's optimistic state).
  const [query, setQuery] = useOptimistic(urlQuery);
  const hrefFor = useCallback((next: Q) => `${pathname}${toQueryString(next)}`, [pathname, toQueryString]);

  const go = useCallback(
    (next: Q, how: "push" | "replace") => {
      const href = hrefFor(next);
      if (href === `${window.location.pathname}${window.location.search}`) return;
      startTransition(() => {
        setQuery(next);
        if (mode === "shallow" && mounted.current) {
          // Next takes these in with a router update of its own, in this transition: until it lands, the view's query
          // is the one asked for.
          if (how === "push") window.history.pushState(null, "", href);
          else window.history.replaceState(null, "", href);
        } else if (how === "push") router.push(href, { scroll: false });
        else router.replace(href, { scroll: false });
      });
    },
    [hrefFor, mode, router, mounted, setQuery],
  );

  return {
    query,
    hrefFor,
    push: useCallback((next: Q) => go(next, "push"), [go]),
    replace: useCallback((next: Q) => go(next, "replace"), [go]),
    pending,
  };
}
