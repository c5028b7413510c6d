// The portal's frame: the theme toggle (remembered, and applied before paint by the nonce'd script, which the
// CSP would block without its nonce), the skip link, and the current section marked in the navigation.
import { as, expect, test } from "./support/fixtures";

test.use({ storageState: as("viewer"), colorScheme: "light" });

test("the theme toggle switches to dark, and a reload keeps it before the first paint", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto("/items");
  const html = page.locator("html");
  await expect(html).not.toHaveAttribute("data-theme", /.*/);
  await page.getByRole("radio", { name: "Dark" }).check();
  await expect(html).toHaveAttribute("data-theme", "dark");

  await page.reload();
  await expect(html).toHaveAttribute("data-theme", "dark");
  await expect(page.getByRole("radio", { name: "Dark" })).toBeChecked();
  // The colour really is the dark theme's, not only the attribute.
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(15, 17, 21)");

  await page.getByRole("radio", { name: "System" }).check();
  await expect(html).not.toHaveAttribute("data-theme", /.*/);
  expect(violations).toEqual([]);
});

test("the current section is marked, and the skip link moves the focus to the content", async ({ page }) => {
  await page.goto("/reports/1");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" })).toHaveAttribute("aria-current", "page");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(page.locator("#main-content")).toBeFocused();
});
