"use client";
// The few keyboard shortcuts a daily user expects, as in GitHub and Linear: `/` focuses the page's search (or the
// field marked data-search-shortcut, e.g. the purchase checker's), `g` then a section's letter goes there, and `?`
// lists them. None fires while the person types in a field, or with Ctrl, Alt or Cmd held (the browser's own).
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";

import { DescriptionList } from "../ui/description-list";
import { Modal } from "../ui/dialog";
import type { NavItem } from "./app-shell";

/** How long `g` waits for its letter: a `g` typed and forgotten must not send a later `d` somewhere. */
const SEQUENCE_MS = 1500;

/** Whether a key press is typing into something (where `/`, `g` and `?` are characters, not shortcuts). */
function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))
  );
}

/** The page's search: the field marked for it, else the first search box in the content. */
function searchField(): HTMLInputElement | null {
  return (
    document.querySelector<HTMLInputElement>("[data-search-shortcut]") ??
    document.querySelector<HTMLInputElement>('#main-content input[type="search"]')
  );
}

export function KeyboardShortcuts({ nav }: { nav: readonly NavItem[] }) {
  const router = useRouter();
  const [listOpen, setListOpen] = useState(false);
  const awaitingLetterUntil = useRef(0);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      if (document.querySelector("dialog[open]")) return;
      const awaitingLetter = awaitingLetterUntil.current > event.timeStamp;
      awaitingLetterUntil.current = 0;
      const target = awaitingLetter ? nav.find((item) => item.shortcut === event.key) : undefined;
      if (target) {
        event.preventDefault();
        router.push(target.href);
      } else if (event.key === "g") {
        awaitingLetterUntil.current = event.timeStamp + SEQUENCE_MS;
      } else if (event.key === "?") {
        event.preventDefault();
        setListOpen(true);
      } else if (event.key === "/") {
        const field = searchField();
        if (!field) return;
        event.preventDefault();
        field.focus();
        field.select();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [nav, router]);

  return (
    <Modal open={listOpen} onClose={() => setListOpen(false)} title="Keyboard shortcuts">
      <DescriptionList
        items={[
          { term: <kbd>/</kbd>, description: "Search this page (on Check a code: the code field)" },
          { term: <kbd>?</kbd>, description: "This list" },
          ...nav
            .filter((item) => item.shortcut)
            .map((item) => ({
              term: (
                <>
                  <kbd>g</kbd> then <kbd>{item.shortcut}</kbd>
                </>
              ),
              description: `Go to ${item.label}`,
            })),
        ]}
      />
    </Modal>
  );
}
