import { describe, expect, it } from "vitest";

import { renderMail } from "@/lib/notifications/email";

import { digest, worse } from "./fixtures";

describe("renderMail", () => {
  it("has the headline as subject, a text part, and an HTML part escaped, styled inline, without images", () => {
    const mail = renderMail([worse("<pricing>")], { publicOrigin: "https://portal.example.com" });
    expect(mail.subject).toBe("acme.io/<pricing> went from good to bad");
    expect(mail.text).toContain("Project: acme.io");
    expect(mail.text).toContain("Open: https://portal.example.com/reports/9");
    expect(mail.html).toContain("acme.io/&lt;pricing&gt; went from good to bad");
    expect(mail.html).toContain("&lt;and&gt; stayed so for 2 results &amp; more");
    expect(mail.html).not.toContain("<pricing>");
    expect(mail.html).not.toMatch(/<img|<style|<script/);
    expect(mail.html).toContain('href="https://portal.example.com/reports/9"');
    expect(mail.text).toContain("Sent by Gatehouse to a team's list");
  });

  it("ends a person's mail with the unsubscribe link, in both parts", () => {
    const url = "https://portal.example.com/notifications/unsubscribe?token=a&b";
    const mail = renderMail([worse("pricing")], {
      publicOrigin: "https://portal.example.com",
      unsubscribe: { url, what: "report.regressed" },
    });
    expect(mail.text).toContain(`Unsubscribe from report.regressed: ${url}`);
    expect(mail.html).toContain('href="https://portal.example.com/notifications/unsubscribe?token=a&amp;b"');
  });

  it("renders a digest's sections as lists, an empty one as none, and the path without PUBLIC_ORIGIN", () => {
    const mail = renderMail([digest], { publicOrigin: null });
    expect(mail.subject).toBe("Your week in Gatehouse");
    expect(mail.text).toContain("Got worse\n- acme.io/pricing: good → bad (/reports/3)");
    expect(mail.text).toContain("Open alerts\n- none");
    expect(mail.html).toContain("<h2");
    expect(mail.html).toContain("In Gatehouse: /");
  });

  it("keeps a subject on one line", () => {
    expect(renderMail([{ ...worse("x"), title: "two\r\nlines" }], { publicOrigin: null }).subject).toBe("two lines");
  });
});
