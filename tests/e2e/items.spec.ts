// Items, browsed as a person does: search, category, sort, pages; an item's media by kind (audio, video,
// screenshots); and the seller account.
import { as, expect, shot, test } from "@/tests/support/e2e/fixtures";

import { closeFiltersWithEscape, expectPrimaryCellsInView, openFilters, PHONE } from "./list-phone";

test.use({ storageState: as("viewer") });

const rows = (page: import("@playwright/test").Page) => page.getByRole("table").locator("tbody tr");
const summary = (page: import("@playwright/test").Page) =>
  page.getByRole("navigation", { name: "Items pages" }).getByText(/^Showing/);

test("search, category, sort by price and pages live in the URL", async ({ page }, testInfo) => {
  // At the desk each row shows its thumbnail, fetched as it comes into view (a phone fetches none: below).
  const thumbnail = page.waitForRequest((request) => request.url().endsWith("/thumbnail.png"));
  await page.goto("/items");
  await thumbnail;
  await expect(summary(page)).toHaveText("Showing 1–25 of 30");
  await shot(page, testInfo, "items");

  await page.getByRole("link", { name: "Page 2", exact: true }).click();
  await expect(page).toHaveURL(/\/items\?page=2$/);
  await expect(summary(page)).toHaveText("Showing 26–30 of 30");
  await page.goBack();
  await expect(summary(page)).toHaveText("Showing 1–25 of 30");

  await page.getByLabel("Category").selectOption("Audio");
  await expect(page).toHaveURL(/\?category=Audio$/);
  await expect(rows(page)).toHaveCount(6);
  for (const cell of await rows(page).locator("td:nth-child(3)").allTextContents()) expect(cell).toMatch(/^Audio/);

  const priceHeader = page.getByRole("columnheader", { name: /Price/ });
  await priceHeader.getByRole("button").click();
  await expect(page).toHaveURL(/\?category=Audio&sort_by=price&sort=asc$/);
  await expect(priceHeader).toHaveAttribute("aria-sort", "ascending");
  const prices = (await rows(page).locator("td:nth-child(4)").allTextContents()).map((text) =>
    Number(text.replace(/[^\d.]/g, "")),
  );
  expect(prices).toEqual([...prices].sort((a, b) => a - b));

  await page.getByLabel("Search items").fill("sting");
  await expect(page).toHaveURL(/\?search=sting&category=Audio&sort_by=price&sort=asc$/);
  await expect(rows(page)).toHaveCount(2);
  await page.reload();
  await expect(rows(page)).toHaveCount(2);
  await expect(rows(page).getByRole("rowheader").first()).toContainText("Sting");
});

test("an audio item has an audio player; a video item a video player; screenshots open in a gallery", async ({
  page,
}, testInfo) => {
  await page.goto("/items?category=Audio");
  await page.getByRole("link", { name: "Acoustic Happy Ukulele" }).click();
  await expect(page).toHaveURL(/\/items\/100005$/);
  await expect(page.getByRole("heading", { level: 1, name: "Acoustic Happy Ukulele" })).toBeVisible();
  await expect(
    page.getByRole("figure", { name: "Audio preview of Acoustic Happy Ukulele" }).locator("audio[controls]"),
  ).toHaveAttribute("src", /^https:\/\//);
  await expect(page.locator("video")).toHaveCount(0);
  const details = page.getByRole("region", { name: "Details" });
  for (const term of [
    "Regular licence",
    "Extended licence",
    "Category",
    "Sub-category",
    "Version",
    "Published",
    "Demo",
  ]) {
    await expect(details.getByText(term, { exact: true })).toBeVisible();
  }
  await expect(page.getByRole("region", { name: "Tags" }).getByRole("listitem").first()).toBeVisible();
  await shot(page, testInfo, "audio-item");

  await page.goto("/items/100002");
  await expect(page.getByRole("heading", { level: 1, name: "Clean Corporate Slideshow" })).toBeVisible();
  await expect(
    page.getByRole("figure", { name: "Video preview of Clean Corporate Slideshow" }).locator("video[controls]"),
  ).toHaveAttribute("src", /^https:\/\//);
  await expect(page.locator("audio")).toHaveCount(0);
  await shot(page, testInfo, "video-item");

  // The gallery: a thumbnail opens the lightbox, arrow keys move, Escape closes and gives the focus back.
  const gallery = page.getByRole("region", { name: "Screenshots" });
  const first = gallery.getByRole("button").first();
  await first.click();
  const lightbox = page.getByRole("dialog", { name: "Screenshot 1 of 2" });
  await expect(lightbox).toBeVisible();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("dialog", { name: "Screenshot 2 of 2" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(first).toBeFocused();
});

test("an unknown item is a not-found page", async ({ page }) => {
  const response = await page.goto("/items/999999");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Item not found" })).toBeVisible();
});

test("the seller account shows its profile, balance and links", async ({ page }, testInfo) => {
  await page.goto("/account");
  await expect(page.getByRole("heading", { level: 1, name: "Seller account" })).toBeVisible();
  await expect(page.getByText("Lena Hoffmann", { exact: true })).toBeVisible();
  await expect(page.getByText("@bytebrush", { exact: true })).toBeVisible();
  await expect(
    page.getByRole("heading", { level: 2, name: "Scripts, motion and music made in Leipzig" }),
  ).toBeVisible();
  const account = page.getByRole("region", { name: "Account details" });
  await expect(account).toContainText("1,843.27");
  await expect(account).toContainText("hello@bytebrush.example.com");
  await expect(account).toContainText("2017");
  await expect(
    page.getByRole("region", { name: "Social links" }).getByRole("link", { name: /github\.com\/bytebrush/ }),
  ).toHaveAttribute("rel", "noopener noreferrer");
  await shot(page, testInfo, "account");
});

test.describe("on a phone", () => {
  test.use({ viewport: PHONE });

  test("items are cards led by their name; the category waits in the Filters (N) sheet", async ({ page }, testInfo) => {
    // The thumbnails stay at the desk: a card leaves them out, and the phone fetches none of them.
    const thumbnails: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/thumbnail.png")) thumbnails.push(request.url());
    });
    await page.goto("/items");
    await expectPrimaryCellsInView(page);
    await expect(page.locator("tbody img")).toHaveCount(25);
    for (const thumbnail of await page.locator("tbody img").all()) await expect(thumbnail).toBeHidden();
    await expect(page.getByLabel("Search items")).toBeVisible();
    await expect(page.getByLabel("Category")).toBeHidden();

    const sheet = await openFilters(page, 0);
    await sheet.getByLabel("Category").selectOption("Audio");
    await expect(page).toHaveURL(/\/items\?category=Audio$/);
    await expect(sheet.getByRole("button", { name: "Show 6 items" })).toBeVisible();
    await closeFiltersWithEscape(page, 1);
    await expect(rows(page)).toHaveCount(6);
    await expectPrimaryCellsInView(page);
    await shot(page, testInfo, "items-phone");
    expect(thumbnails).toEqual([]);
  });
});
