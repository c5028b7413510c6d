// The sign-in between its two steps: a sealed, HttpOnly, SameSite=Strict cookie naming the person, read back only
// unaltered, under a known secret, and within SECOND_STEP_MINUTES.
import { describe, expect, it } from "vitest";

import {
  clearPendingSignIn,
  PENDING_COOKIE_NAME,
  readPendingSignIn,
  SECURE_PENDING_COOKIE_NAME,
  writePendingSignIn,
} from "@/lib/auth/factors/pending";
import type { SessionCookieOptions, SessionCookieStore } from "@/lib/auth/session";
import { SECOND_STEP_MINUTES } from "@/lib/contract/values";

const SECRET = "a session secret for the pending tests, long enough";
const T0 = Date.parse("2026-03-01T12:00:00.000Z");
const pending = { userId: "u1", sessionVersion: 3, next: "/reports", startedAt: T0 };

function jar() {
  const values = new Map<string, { value: string; options: SessionCookieOptions }>();
  const store: SessionCookieStore & { values: typeof values } = {
    values,
    get: (name) => values.get(name),
    set: (name, value, options) => values.set(name, { value, options }),
  };
  return store;
}

describe("the pending sign-in cookie", () => {
  it("is written sealed, HttpOnly, SameSite=Strict for SECOND_STEP_MINUTES, and read back", () => {
    const cookies = jar();
    writePendingSignIn(cookies, pending, { secrets: [SECRET], secure: false });
    const written = cookies.values.get(PENDING_COOKIE_NAME)!;
    expect(written.value).not.toContain("u1");
    expect(written.options).toMatchObject({
      httpOnly: true,
      sameSite: "strict",
      path: "/",
      maxAge: SECOND_STEP_MINUTES * 60,
    });
    expect(readPendingSignIn(cookies, { secrets: [SECRET], secure: false }, T0 + 1000)).toEqual(pending);
  });

  it("is named __Host- over https", () => {
    const cookies = jar();
    writePendingSignIn(cookies, pending, { secrets: [SECRET], secure: true });
    expect(cookies.values.has(SECURE_PENDING_COOKIE_NAME)).toBe(true);
    expect(readPendingSignIn(cookies, { secrets: [SECRET], secure: false }, T0)).toBeNull();
    expect(readPendingSignIn(cookies, { secrets: [SECRET], secure: true }, T0)).toEqual(pending);
  });

  it("reads as nothing when too old, from the future, altered, under another secret, or absent", () => {
    const cookies = jar();
    const settings = { secrets: [SECRET], secure: false };
    expect(readPendingSignIn(cookies, settings, T0)).toBeNull();
    writePendingSignIn(cookies, pending, settings);
    expect(readPendingSignIn(cookies, settings, T0 + SECOND_STEP_MINUTES * 60_000)).toBeNull();
    expect(readPendingSignIn(cookies, settings, T0 - 1)).toBeNull();
    expect(
      readPendingSignIn(cookies, { secrets: ["another secret altogether, quite long"], secure: false }, T0),
    ).toBeNull();
    const sealed = cookies.values.get(PENDING_COOKIE_NAME)!;
    cookies.set(PENDING_COOKIE_NAME, `${sealed.value.slice(0, -2)}AA`, sealed.options);
    expect(readPendingSignIn(cookies, settings, T0)).toBeNull();
  });

  it("is cleared", () => {
    const cookies = jar();
    writePendingSignIn(cookies, pending, { secrets: [SECRET], secure: false });
    clearPendingSignIn(cookies, { secure: false });
    expect(cookies.values.get(PENDING_COOKIE_NAME)).toMatchObject({ value: "", options: { maxAge: 0 } });
    expect(readPendingSignIn(cookies, { secrets: [SECRET], secure: false }, T0)).toBeNull();
  });
});
