// The portal's frame: the theme toggle (remembered, and applied before paint by the nonce'd script, which the
// CSP would block without its nonce), the skip link, and the current section marked in the navigation.
import { as, expect, hydrated, test } from "@/tests/support/e2e/fixtures";

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
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(page.locator("#main-content")).toBeFocused();
});

test("the portal has its icons: /favicon.ico, the SVG icon and the Apple touch icon, linked from every page", async ({
  page,
  request,
}) => {
  await page.goto("/");
  const links = await page.locator('head link[rel="icon"], head link[rel="apple-touch-icon"]').evaluateAll((elements) =>
    elements.map((element) => ({
      rel: element.getAttribute("rel"),
      href: element.getAttribute("href"),
      type: element.getAttribute("type"),
    })),
  );
  expect(links).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ rel: "icon", href: expect.stringMatching(/^\/favicon\.ico/) }),
      expect.objectContaining({ rel: "icon", href: expect.stringMatching(/^\/icon\.svg/), type: "image/svg+xml" }),
      expect.objectContaining({ rel: "apple-touch-icon", href: expect.stringMatching(/^\/apple-icon\.png/) }),
    ]),
  );
  for (const { href } of links) {
    const response = await request.get(href!);
    expect(response.status(), href!).toBe(200);
    expect(response.headers()["content-type"], href!).toMatch(/^image\//);
  }
  // Asked for without a page, as browsers and feed readers do, and without a session.
  const signedOut = await request.get("/favicon.ico", { headers: { Cookie: "" } });
  expect(signedOut.status()).toBe(200);
  expect(signedOut.headers()["content-type"]).toBe("image/x-icon");
});

test("keyboard shortcuts: ? lists them, g then a letter goes there, / focuses the page's search", async ({ page }) => {
  await page.goto("/");
  await hydrated(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" }));
  const list = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  // The listener is added just after hydration: press again until it is there (a second ? with the list open is
  // ignored).
  await expect(async () => {
    await page.keyboard.press("?");
    await expect(list).toBeVisible({ timeout: 1000 });
  }).toPass();
  await expect(list.getByText("Go to Reports")).toBeVisible();
  // Only where the role may go: a viewer has no Users page.
  await expect(list.getByText("Go to Users")).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(list).toBeHidden();

  await page.keyboard.press("g");
  await page.keyboard.press("r");
  await expect(page).toHaveURL(/\/reports$/);
  const search = page.getByRole("searchbox").first();
  await hydrated(search);
  await page.keyboard.press("/");
  await expect(search).toBeFocused();
  // In a field, the keys are text: "g" then "d" stays on the page.
  await page.keyboard.type("gd");
  await expect(search).toHaveValue("gd");
  await expect(page).toHaveURL(/\/reports(\?.*)?$/);
});
