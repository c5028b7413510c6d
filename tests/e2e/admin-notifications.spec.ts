// An admin adds a Slack channel pointing at a receiver this test starts (after a refusal told in the form's words),
// sends it a test message, and sees it sent in the channel's delivery log; the receiver got Block Kit.
import { as, expect, shot, test } from "@/tests/support/e2e/fixtures";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";

test.use({ storageState: as("admin") });

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
  const [sent] = await receiver.until(1);
  expect(JSON.parse(sent!.body)).toMatchObject({ text: "A test message from Gatehouse", blocks: expect.any(Array) });
  const row = card.getByRole("row", { name: /A test message from Gatehouse/ });
  await expect(row).toContainText("Sent");
  await shot(page, testInfo, "channel-log");
});
