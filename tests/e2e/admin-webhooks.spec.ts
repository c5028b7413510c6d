// An admin adds a webhook endpoint (a receiver this test starts) after a refusal told in the form's words, sends it
// a test event, sees a purchase check's delivery in its log, and sends it again: the receiver gets it twice, with the
// same webhook-id, verified both times.
import { as, confirmedAgain, expect, shot, test } from "@/tests/support/e2e/fixtures";

import { expectPrimaryCellsInView, PHONE } from "./list-phone";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";

import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";

test.use({ storageState: as("admin") });
test.beforeEach(({ page }) => confirmedAgain(page, "admin"));

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
test.afterAll(async () => {
  await receiver?.close();
});

test("add an endpoint, send it a test event, see a delivery in its log, send it again", async ({ page }, testInfo) => {
  await page.goto("/admin/webhooks");
  const form = page.getByRole("form", { name: "Add an endpoint" });
  // A refusal names the field by its label, in a sentence (issue 31, item 11).
  await form.getByLabel("URL").fill("example.com/hooks");
  await form.getByLabel("purchase.checked").check();
  await form.getByRole("button", { name: "Add endpoint" }).click();
  await expect(form.getByText(/^URL: Must be an https:\/\/ URL/)).toBeVisible();
  await expect(form.getByText(/Invalid field|url must/)).toHaveCount(0);

  await form.getByLabel("URL").fill(receiver.url);
  await form.getByRole("button", { name: "Add endpoint" }).click();
  const secret = (await page.getByTestId("webhook-secret").textContent())!;
  expect(secret).toMatch(/^whsec_/);
  receiver.secrets = [secret];
  await page.getByRole("button", { name: "Done" }).click();

  // A test event, signed like every other, through the delivery job; its delivery shows in the log.
  await page.getByRole("region", { name: receiver.url }).getByRole("button", { name: "Send test event" }).click();
  const [test] = await receiver.until(1);
  expect(test).toMatchObject({ status: 204, verifiedWith: 0 });
  expect(JSON.parse(test!.body)).toMatchObject({ type: "webhook.test" });
  await expect(page.getByRole("row", { name: /webhook\.test/ })).toContainText("Delivered");

  // Something happens: a purchase check, through the page.
  await page.goto("/purchases");
  await page.getByLabel(/Purchase code/).fill(FIXED_PURCHASE_CODES.active);
  await page.getByRole("button", { name: "Check code" }).click();
  await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
  const [, first] = await receiver.until(2);
  expect(first).toMatchObject({ status: 204, verifiedWith: 0 });

  await page.goto("/admin/webhooks");
  const card = page.getByRole("region", { name: receiver.url, exact: true });
  await card.getByRole("button", { name: "Deliveries" }).click();
  const row = page.getByRole("row", { name: /purchase\.checked/ });
  await expect(row).toContainText("Delivered");
  await expect(row).toContainText("204");
  await shot(page, testInfo, "delivery-log");

  await row.getByRole("button", { name: `Send ${first!.id} again` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Sending it again." })).toBeVisible();
  const [, , again] = await receiver.until(3);
  expect(again).toMatchObject({ id: first!.id, status: 204, verifiedWith: 0 });
  // The log shows the second attempt once it refreshes.
  await expect(row.locator("li")).toHaveCount(2);

  // Pausing is one click from undone.
  await card.getByRole("button", { name: "Pause" }).click();
  await expect(card).toContainText("Disabled");
  await page
    .getByRole("status")
    .filter({ hasText: `Paused ${receiver.url}.` })
    .getByRole("button", { name: "Undo" })
    .click();
  await expect(page.getByRole("status").filter({ hasText: `${receiver.url} receives events again.` })).toBeVisible();
  await expect(card.getByRole("button", { name: "Pause" })).toBeVisible();

  // On a phone each delivery is a card led by its event and status; the log says its order.
  await page.setViewportSize(PHONE);
  await expectPrimaryCellsInView(page, page.getByRole("table").filter({ has: row }));
  await expect(page.getByText("Newest first", { exact: true })).toBeVisible();
  await shot(page, testInfo, "deliveries-phone");
});
