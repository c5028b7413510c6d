// An admin adds a webhook endpoint (a receiver this test starts), sees a purchase check's delivery in its log,
// and sends it again: the receiver gets it twice, with the same webhook-id, verified both times.
import { as, expect, shot, test } from "@/tests/support/e2e/fixtures";

import { expectPrimaryCellsInView, PHONE } from "./list-phone";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";

import { FIXED_PURCHASE_CODES } from "@/lib/sandbox";

test.use({ storageState: as("admin") });

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
test.afterAll(async () => {
  await receiver?.close();
});

test("add an endpoint, see a delivery in its log, send it again", async ({ page }, testInfo) => {
  await page.goto("/admin/webhooks");
  const form = page.getByRole("form", { name: "Add an endpoint" });
  await form.getByLabel("URL").fill(receiver.url);
  await form.getByLabel("purchase.checked").check();
  await form.getByRole("button", { name: "Add endpoint" }).click();
  const secret = (await page.getByTestId("webhook-secret").textContent())!;
  expect(secret).toMatch(/^whsec_/);
  receiver.secrets = [secret];
  await page.getByRole("button", { name: "Done" }).click();

  // Something happens: a purchase check, through the page.
  await page.goto("/purchases");
  await page.getByLabel(/Purchase code/).fill(FIXED_PURCHASE_CODES.active);
  await page.getByRole("button", { name: "Check code" }).click();
  await expect(page.getByRole("heading", { name: /This purchase code is valid/ })).toBeVisible();
  const [first] = await receiver.until(1);
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
  const [, again] = await receiver.until(2);
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
