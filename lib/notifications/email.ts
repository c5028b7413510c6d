// A delivery's messages as an e-mail: a subject (the headline), a text part and an HTML part. The HTML is escaped
// throughout, styled inline (mail clients drop <style>), in one table of 600 pixels at most, and needs no image.
// A digest (topic "digest") shows its sections as lists. A mail to a person ends with the one-click unsubscribe link.
import { absoluteLink, isOpenable } from "./links";
import { summaryOf, type NotificationMessage } from "./message";

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
const COLOR = { bad: "#b42318", good: "#067647", info: "#1d4ed8" } as const;
const FONT = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const when = (iso: string) => `${iso.replace("T", " ").slice(0, 16)} UTC`;

export interface MailOptions {
  publicOrigin: string | null;
  /** The unsubscribe link (absolute), for a mail to a person; a team list's mail has none. */
  unsubscribe?: { url: string; what: string } | null;
}

export function renderMail(messages: readonly NotificationMessage[], options: MailOptions): RenderedMail {
  const subject = summaryOf(messages).replace(/[\r\n]+/g, " ");
  const link = (path: string) => absoluteLink(path, options.publicOrigin);

  const text: string[] = [subject, ""];
  const html: string[] = [];
  for (const message of messages) {
    const target = link(message.link);
    text.push(message.title, message.text);
    for (const fact of message.facts ?? []) text.push(`${fact.label}: ${fact.value}`);
    for (const section of message.sections ?? []) {
      text.push("", section.heading);
      for (const line of section.lines) text.push(`- ${line.text}${line.link ? ` (${link(line.link)})` : ""}`);
      if (section.lines.length === 0) text.push("- none");
    }
    text.push(`Since ${when(message.since)}`, `Open: ${target}`, "");

    const facts = (message.facts ?? [])
      .map(
        (fact) =>
          `<tr><td style="padding:2px 12px 2px 0;color:#555;${FONT};font-size:14px">${escapeHtml(fact.label)}</td><td style="padding:2px 0;${FONT};font-size:14px">${escapeHtml(fact.value)}</td></tr>`,
      )
      .join("");
    const sections = (message.sections ?? [])
      .map((section) => {
        const lines = section.lines.map((line) => {
          const href = line.link ? link(line.link) : null;
          const label = escapeHtml(line.text);
          return `<li style="margin:2px 0">${href && isOpenable(href) ? `<a href="${escapeHtml(href)}" style="color:#1d4ed8">${label}</a>` : label}</li>`;
        });
        return `<h2 style="margin:20px 0 6px;${FONT};font-size:16px;color:#111">${escapeHtml(section.heading)}</h2><ul style="margin:0;padding-left:20px;${FONT};font-size:14px;color:#222">${lines.join("") || '<li style="margin:2px 0;color:#555">none</li>'}</ul>`;
      })
      .join("");
    const button = isOpenable(target)
      ? `<p style="margin:16px 0 0"><a href="${escapeHtml(target)}" style="display:inline-block;padding:8px 14px;background:#1d4ed8;color:#ffffff;text-decoration:none;border-radius:4px;${FONT};font-size:14px">Open in Gatehouse</a></p>`
      : `<p style="margin:16px 0 0;${FONT};font-size:13px;color:#555">In Gatehouse: ${escapeHtml(target)}</p>`;
    html.push(
      `<tr><td style="padding:16px 24px;border-top:4px solid ${COLOR[message.tone]}">` +
        `<h1 style="margin:0 0 8px;${FONT};font-size:18px;color:#111">${escapeHtml(message.title)}</h1>` +
        `<p style="margin:0 0 8px;${FONT};font-size:14px;color:#222">${escapeHtml(message.text)}</p>` +
        (facts ? `<table role="presentation" style="border-collapse:collapse">${facts}</table>` : "") +
        sections +
        `<p style="margin:12px 0 0;${FONT};font-size:12px;color:#555">Since ${escapeHtml(when(message.since))}</p>` +
        button +
        `</td></tr>`,
    );
  }
  const footer = options.unsubscribe
    ? `You get this because you subscribed in Gatehouse. <a href="${escapeHtml(options.unsubscribe.url)}" style="color:#555">Unsubscribe from ${escapeHtml(options.unsubscribe.what)}</a>.`
    : "Sent by Gatehouse to a team's list, set by its admins.";
  if (options.unsubscribe) text.push("--", `Unsubscribe from ${options.unsubscribe.what}: ${options.unsubscribe.url}`);
  else text.push("--", "Sent by Gatehouse to a team's list, set by its admins.");
  const body =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:0;background:#f4f4f5">` +
    `<table role="presentation" width="100%" style="border-collapse:collapse;background:#f4f4f5"><tr><td align="center" style="padding:24px 8px">` +
    `<table role="presentation" width="600" style="max-width:600px;width:100%;border-collapse:collapse;background:#ffffff">` +
    `<tr><td style="padding:16px 24px 0;${FONT};font-size:13px;color:#555">Gatehouse</td></tr>` +
    (messages.length > 1
      ? `<tr><td style="padding:8px 24px 16px;${FONT};font-size:16px;font-weight:bold;color:#111">${escapeHtml(subject)}</td></tr>`
      : "") +
    html.join("") +
    `<tr><td style="padding:16px 24px;border-top:1px solid #e4e4e7;${FONT};font-size:12px;color:#555">${footer}</td></tr>` +
    `</table></td></tr></table></body></html>`;
  return { subject, text: text.join("\n"), html: body };
}
