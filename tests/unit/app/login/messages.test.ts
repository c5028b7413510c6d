// The sign-in page's sentence for each error code of POST /api/auth/login, with JavaScript or without.
import { describe, expect, it } from "vitest";

import { signInFailure } from "@/app/login/messages";

describe("signInFailure", () => {
  it.each(["invalid_credentials", "rate_limited", "server_busy", "invalid_input", "invalid_json", "csrf", "internal"])(
    "says something a person can act on for %s",
    (code) => {
      expect(signInFailure(code, 30)).toMatch(/\.$/);
    },
  );

  it("a busy server and a throttle say when to try again", () => {
    expect(signInFailure("server_busy", 2)).toBe(
      "Gatehouse is checking too many sign-ins at once. Try again in 2 seconds.",
    );
    expect(signInFailure("rate_limited", 600)).toBe("Too many sign-in attempts. Try again in 10 minutes.");
  });

  it("an unknown code is left to the caller", () => {
    expect(signInFailure("no_such_code")).toBeNull();
  });
});
