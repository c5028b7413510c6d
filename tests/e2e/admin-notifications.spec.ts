// An admin adds a Slack channel pointing at a receiver this test starts (after a refusal told in the form's words),
// sends it a test message, and sees it sent in the channel's delivery log; the receiver got Block Kit. Then he
// chooses what the channel is told of (a report topic narrowed to one project and a rule), and what every
// notification waits for; both stay saved.
import { as, axeViolations, confirmedAgain, expect, shot, test } from "@/tests/support/e2e/fixtures";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";

test.use({ storageState: as("admin") });
test.beforeEach(({ page }) => confirmedAgain(page, "admin"));

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await startWebhookReceiver({ verify: false });
});
test.afterAll(async () => {
  await receiver?.close();
});

test("add a Slack channel, send it a test message, see it in its log", async ({ page }, testInfo) => {
  await page.goto("/admin/notifications");
  await expect(page.getByText("No mail server is set: e-mail channels")).toBeVisible();
  const form = page.getByRole("form", { name: "Add a channel" });
  await form.getByLabel("Name").fill("#web-perf");
  await form.getByLabel("Webhook URL").fill("example.com/hooks");
  await form.getByRole("button", { name: "Add channel" }).click();
  await expect(form.getByText(/^Target: Must be the Slack incoming webhook's URL/)).toBeVisible();

  await form.getByLabel("Webhook URL").fill(`${receiver.url}/T000/B000/e2esecret`);
  await form.getByRole("button", { name: "Add channel" }).click();
  const card = page.getByRole("region", { name: "#web-perf (Slack)" });
  await expect(card).toContainText("Enabled");
  await expect(card).not.toContainText("e2esecret");

  await card.getByRole("button", { name: "Send a test message to #web-perf" }).click();
  await expect(page.getByRole("status").filter({ hasText: "The test message was sent." })).toBeVisible();
  // Sent before the page said so; the channel's first digest (due this week from its day and hour) may follow.
  const sent = (await receiver.until(1)).find((delivery) => delivery.body.includes("A test message from Gatehouse"));
  expect(JSON.parse(sent!.body)).toMatchObject({ text: "A test message from Gatehouse", blocks: expect.any(Array) });
  const row = card.getByRole("row", { name: /A test message from Gatehouse/ });
  await expect(row).toContainText("Sent");
  await shot(page, testInfo, "channel-log");

  await card.getByRole("button", { name: "Topics" }).click();
  const topics = card.getByRole("group", { name: "Tell #web-perf when" });
  await topics.getByLabel("An upstream rejected its key").check();
  await topics.getByLabel("A page's result got worse, and stayed so").check();
  const narrowing = topics.getByRole("group", { name: /^Which projects and rule for “A page's result got worse/ });
  await narrowing.getByLabel("Only these projects").check();
  await card.getByRole("button", { name: "Save topics" }).click();
  await expect(topics.getByText(/^Choose a project for “A page's result got worse, and stayed so”/)).toBeVisible();
  await narrowing.getByLabel("acme-tools.io").check();
  await narrowing.getByLabel("Alert rule").selectOption({ label: "Only a drop to bad" });
  await card.getByRole("button", { name: "Save topics" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved what #web-perf is told of." })).toBeVisible();

  const rules = page.getByRole("region", { name: "What notifications wait for" });
  await rules.getByLabel("Minutes repeats wait to merge").fill("61");
  await rules.getByRole("button", { name: "Save" }).click();
  await expect(rules.getByText("At most 60 minutes.")).toBeVisible();
  await rules.getByLabel("Minutes repeats wait to merge").fill("5");
  await rules.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved what the notifications wait for." })).toBeVisible();

  await page.reload();
  await expect(
    page.getByRole("region", { name: "What notifications wait for" }).getByLabel("Minutes repeats wait to merge"),
  ).toHaveValue("5");
  const again = page.getByRole("region", { name: "#web-perf (Slack)" });
  await again.getByRole("button", { name: "Topics" }).click();
  const saved = again.getByRole("group", { name: "Tell #web-perf when" });
  await expect(saved.getByLabel("An upstream rejected its key")).toBeChecked();
  await expect(saved.getByLabel("A page's result got worse, and stayed so")).toBeChecked();
  await expect(saved.getByLabel("It answers again")).not.toBeChecked();
  const kept = saved.getByRole("group", { name: /^Which projects and rule for “A page's result got worse/ });
  await expect(kept.getByLabel("Only these projects")).toBeChecked();
  await expect(kept.getByLabel("acme-tools.io")).toBeChecked();
  await expect(kept.getByLabel("northwind-coffee.com")).not.toBeChecked();
  await expect(kept.getByLabel("Alert rule")).toHaveValue("to_bad");
  const channelId = (await page.request.get("/api/admin/notifications/channels").then((r) => r.json())).data.find(
    (channel: { name: string }) => channel.name === "#web-perf",
  ).id;
  const answer = await page.request.get(`/api/admin/notifications/channels/${channelId}/subscriptions`);
  expect((await answer.json()).data.subscriptions).toEqual([
    { topic: "report.regressed", project: "acme-tools.io", rule: "to_bad" },
    { topic: "upstream.key_rejected", project: null, rule: null },
  ]);
  expect(await axeViolations(page), "axe with a channel's topics open").toEqual([]);
});
