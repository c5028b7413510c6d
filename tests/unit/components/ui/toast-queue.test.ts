// The toasts' queue: three at most (the oldest goes), repeats counted on the toast shown, dismissal by id.
import { describe, expect, it } from "vitest";

import { dismissToast, MAX_TOASTS, pushToast, type ToastEntry } from "@/components/ui/toast-queue";

const send = (list: readonly ToastEntry[], id: number, message: string, kind: "success" | "error" = "success") =>
  pushToast(list, { id, kind, message });

describe("pushToast", () => {
  it("adds a new message last, counted once", () => {
    const list = send(send([], 1, "Saved."), 2, "Deleted.");
    expect(list.map(({ id, message, count }) => ({ id, message, count }))).toEqual([
      { id: 1, message: "Saved.", count: 1 },
      { id: 2, message: "Deleted.", count: 1 },
    ]);
  });

  it("keeps three at most: the oldest goes for a new one", () => {
    expect(MAX_TOASTS).toBe(3);
    let list: ToastEntry[] = [];
    for (const [id, message] of ["One", "Two", "Three", "Four"].entries()) list = send(list, id + 1, message);
    expect(list.map((toast) => toast.message)).toEqual(["Two", "Three", "Four"]);
  });

  it("counts a repeat on the toast shown, in its place, and moves its shownAt on (its timer restarts)", () => {
    const first = send(send([], 1, "Link copied."), 2, "Other.");
    const repeated = send(send(first, 3, "Link copied."), 4, "Link copied.");
    expect(repeated).toHaveLength(2);
    expect(repeated[0]).toEqual({ id: 1, kind: "success", message: "Link copied.", count: 3, shownAt: 2 });
    expect(repeated[1]).toBe(first[1]);
    // The queue is not changed in place: React sees a new list.
    expect(first[0]!.count).toBe(1);
  });

  it("does not merge an error with a success of the same words", () => {
    const list = send(send([], 1, "Done."), 2, "Done.", "error");
    expect(list.map((toast) => [toast.kind, toast.count])).toEqual([
      ["success", 1],
      ["error", 1],
    ]);
  });

  it("never merges a toast with an Undo: each undoes its own action", () => {
    const undo = async () => "Undone.";
    const list = pushToast(pushToast([], { id: 1, kind: "success", message: "Paused.", undo }), {
      id: 2,
      kind: "success",
      message: "Paused.",
      undo,
    });
    expect(list.map((toast) => [toast.id, toast.count])).toEqual([
      [1, 1],
      [2, 1],
    ]);
  });

  it("a repeat never pushes another toast out", () => {
    const full = send(send(send([], 1, "A"), 2, "B"), 3, "C");
    expect(send(full, 4, "A").map((toast) => toast.message)).toEqual(["A", "B", "C"]);
  });
});

describe("dismissToast", () => {
  it("removes the toast with that id only, and a message sent again afterwards is new", () => {
    const list = send(send([], 1, "A"), 2, "B");
    const left = dismissToast(list, 1);
    expect(left.map((toast) => toast.id)).toEqual([2]);
    expect(send(left, 3, "A").at(-1)).toMatchObject({ id: 3, message: "A", count: 1 });
    expect(dismissToast(left, 99)).toEqual(left);
  });
});
