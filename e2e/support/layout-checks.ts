import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Checks of a page's layout for specs that look at it at a given screen size (phones.spec.ts): an
 * id on one line, no sideways scroll, a table's rows stacked or side by side, the roles Chromium
 * computed. What the page logged is every test's check (browserErrors in fixtures.ts).
 */

/** On one line: its box is at most one line high (an id broken at its hyphen is two). */
export async function expectOneLine(element: Locator, what: string) {
  const box = await element.evaluate((node) => ({
    height: node.getBoundingClientRect().height,
    lineHeight: Number.parseFloat(getComputedStyle(node).lineHeight),
    rects: node.getClientRects().length,
  }));
  expect(box.rects, `${what}: one box`).toBe(1);
  expect(box.height, `${what}: one line (line height ${box.lineHeight}px)`).toBeLessThan(
    box.lineHeight * 1.5,
  );
}

/** An id on one line, whole in its title and in its accessible text even when cut with an ellipsis. */
export async function expectWholeId(element: Locator, id: string, what: string) {
  await expect(element).toBeVisible();
  await expectOneLine(element, what);
  await expect(element).toHaveAttribute('title', id);
  await expect(element).toHaveText(id);
}

/**
 * An id a person can read whole (#43, item 1): its text is the id, inside the screen, and not cut,
 * wrapped if need be; only where `cutInAList` (a table's column on a wide screen) may it be cut
 * with an ellipsis, its full text then in its title and its name, one tap from the group's page.
 */
export async function expectReadableId(
  element: Locator,
  id: string,
  what: string,
  { cutInAList = false }: { cutInAList?: boolean } = {},
) {
  await expect(element).toBeVisible();
  await expect(element).toHaveText(id);
  const box = await element.evaluate((node) => ({
    cut: node.scrollWidth > node.clientWidth + 1,
    right: node.getBoundingClientRect().right,
    screen: document.documentElement.clientWidth,
  }));
  expect(box.right, `${what}: inside the screen`).toBeLessThanOrEqual(box.screen + 1);
  if (box.cut) {
    expect(cutInAList, `${what} is cut`).toBe(true);
    await expect(element).toHaveAttribute('title', id);
  }
}

export async function expectNoSidewaysScroll(page: Page, what: string) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
  });
  expect(scrollWidth, `${what} scrolls sideways`).toBeLessThanOrEqual(clientWidth);
}

/**
 * A phone: the table's first row is a card of "label  value" lines (each cell one under the other,
 * its label drawn before it), its header row out of sight but still the table's for screen readers.
 * A laptop: columns side by side, under a header row, without drawn labels.
 */
export async function expectTableShape(table: Locator, stacked: boolean, labels: string[]) {
  const shape = await table.evaluate((element) => {
    const firstRow = element.querySelector('tbody tr');
    const cells = [...(firstRow?.querySelectorAll('td') ?? [])].filter(
      (cell) => cell.getBoundingClientRect().height > 0,
    );
    return {
      display: getComputedStyle(element).display,
      lefts: cells.map((cell) => Math.round(cell.getBoundingClientRect().left)),
      labels: cells.map((cell) => getComputedStyle(cell, '::before').content),
      // The plain headings' room on screen: the header row's, or theirs (a header of controls).
      headerHeight: Math.min(
        element.querySelector('thead')?.getBoundingClientRect().height ?? 0,
        element.querySelector('thead th:not(:has(a, input))')?.getBoundingClientRect().height ?? 0,
      ),
    };
  });
  expect(shape.lefts.length, 'cells in the first row').toBeGreaterThan(1);
  if (stacked) {
    expect(shape.display).toBe('block');
    expect(new Set(shape.lefts).size, 'cells one under the other').toBe(1);
    for (const label of labels)
      expect(
        shape.labels.some((content) => content.includes(`"${label}"`)),
        `label ${label} drawn`,
      ).toBe(true);
    expect(shape.headerHeight, 'plain headings out of sight').toBeLessThanOrEqual(1);
  } else {
    expect(shape.display).toBe('table');
    expect(new Set(shape.lefts).size, 'cells side by side').toBe(shape.lefts.length);
    expect(shape.labels.every((content) => content === 'none')).toBe(true);
    expect(shape.headerHeight).toBeGreaterThan(10);
    // A long id takes at most its share: the table fits the laptop's width without scrolling.
    const region = await table.evaluate((element) => {
      const scroller = element.parentElement as HTMLElement;
      return { scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth };
    });
    expect(region.scrollWidth, 'the table scrolls sideways').toBeLessThanOrEqual(region.clientWidth);
  }
  // Whatever the display, Chromium's accessibility tree still has a table of headers and cells.
  const roles = await table.evaluate((element) => ({
    table: element.getAttribute('role'),
    headers: element.querySelectorAll('[role="columnheader"]').length,
    cells: element.querySelectorAll('[role="cell"]').length,
  }));
  expect(roles.table).toBe('table');
  expect(roles.headers).toBeGreaterThan(0);
  expect(roles.cells).toBeGreaterThan(0);
}

/** The roles Chromium itself computed (its accessibility tree), counted. */
export async function accessibleRoles(page: Page): Promise<Record<string, number>> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
      nodes: { role?: { value?: string }; ignored?: boolean }[];
    };
    const counts: Record<string, number> = {};
    for (const node of nodes) {
      const role = node.role?.value;
      if (role && !node.ignored) counts[role] = (counts[role] ?? 0) + 1;
    }
    return counts;
  } finally {
    await cdp.detach();
  }
}
