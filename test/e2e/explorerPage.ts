import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { BROWSER_WAIT_MS } from '../support/browser.js';

/**
 * Reading and driving the example app's tree in a page, for the browser tests: waits on what the
 * page shows, never on time.
 */

/** CSS for the list items directly below a node in the tree (`null`: the roots). */
export const childItems = (parentId: string | null) =>
  parentId === null ? 'ul[aria-label="Roots"] > li' : `li[data-node-id="${parentId}"] > ul > li`;

/** The row (toggle, name, count) of a node's tree item: the drag handle and drop target. */
export const row = (page: Page, id: string) => page.locator(`li[data-node-id="${id}"] > .tree-row`);

export const item = (page: Page, id: string) => page.locator(`li[role="treeitem"][data-node-id="${id}"]`);

interface ListQuery {
  selector: string;
  /** Read this attribute of each element; unset: its trimmed text. */
  attribute?: string;
}

/** Runs in the page: what the elements matching the selector read, in document order. */
function readList({ selector, attribute }: ListQuery): string[] {
  const elements = Array.from((globalThis as any).document.querySelectorAll(selector) as ArrayLike<any>);
  return elements.map((element) => String(attribute ? element.getAttribute(attribute) : element.textContent.trim()));
}

/** Waits until the elements matching `selector` read `expected`, in order (attribute or text). */
export async function waitForList(page: Page, selector: string, expected: string[], attribute?: string): Promise<void> {
  const query: ListQuery = { selector, attribute };
  try {
    await page.waitForFunction(
      ({ query, expected }) => {
        const elements = Array.from((globalThis as any).document.querySelectorAll(query.selector) as ArrayLike<any>);
        const actual = elements.map((element) =>
          String(query.attribute ? element.getAttribute(query.attribute) : element.textContent.trim()),
        );
        return JSON.stringify(actual) === JSON.stringify(expected);
      },
      { query, expected },
    );
  } catch (error) {
    const actual = await page.evaluate(readList, query).catch(() => 'unreadable');
    throw new Error(`${selector}: expected ${JSON.stringify(expected)}, still ${JSON.stringify(actual)}`, {
      cause: error,
    });
  }
}

export const waitForChildren = (page: Page, parentId: string | null, ids: string[]) =>
  waitForList(page, childItems(parentId), ids, 'data-node-id');

export const waitForBreadcrumbs = (page: Page, names: string[]) =>
  waitForList(page, 'nav[aria-label="Breadcrumbs"] li', names);

/**
 * Runs in the page: the tree as shown, one line per visible item, indented by level, with its
 * ARIA state: `  oaks [+] 3/4` (open, third of four), `[-]` closed, `*` selected.
 */
export function readTree(): string[] {
  const items = Array.from((globalThis as any).document.querySelectorAll('[role="treeitem"]') as ArrayLike<any>);
  return items.map((element) => {
    const level = Number(element.getAttribute('aria-level'));
    const expanded = element.getAttribute('aria-expanded');
    const open = expanded === null ? '' : expanded === 'true' ? ' [+]' : ' [-]';
    const selected = element.getAttribute('aria-selected') === 'true' ? ' *' : '';
    return (
      `${'  '.repeat(level - 1)}${element.getAttribute('data-node-id')}${open} ` +
      `${element.getAttribute('aria-posinset')}/${element.getAttribute('aria-setsize')}${selected}`
    );
  });
}

/** Waits until the tree reads `expected` (see readTree). */
export async function waitForTree(page: Page, expected: string[]): Promise<void> {
  await expect.poll(() => page.evaluate(readTree), { timeout: BROWSER_WAIT_MS }).toEqual(expected);
}

/** The id of the tree item that has the keyboard focus (null: none has). */
export const focusedItem = (page: Page) =>
  page.evaluate(() => {
    const active = (globalThis as any).document.activeElement;
    return active?.getAttribute('role') === 'treeitem' ? (active.getAttribute('data-node-id') as string) : null;
  });

/** Waits until the tree item `id` has the keyboard focus. */
export async function waitForFocus(page: Page, id: string): Promise<void> {
  try {
    await page.waitForFunction((id) => {
      const active = (globalThis as any).document.activeElement;
      return active?.getAttribute('role') === 'treeitem' && active.getAttribute('data-node-id') === id;
    }, id);
  } catch (error) {
    throw new Error(`focus: expected on ${id}, it is on ${await focusedItem(page)}`, { cause: error });
  }
}

/** The ids of the tree items in the Tab order (tabindex=0): exactly one, in a roving tabindex. */
export const tabbableItems = (page: Page) =>
  page.evaluate(() =>
    Array.from((globalThis as any).document.querySelectorAll('[role="treeitem"][tabindex="0"]') as ArrayLike<any>).map(
      (element) => element.getAttribute('data-node-id') as string,
    ),
  );

export type DropPosition = 'before' | 'after' | 'into';

/**
 * Starts dragging the row of `sourceId` with the mouse and holds it over the row of `targetId`
 * at `position` (its top, bottom or middle); waits for the drop indicator there. Playwright
 * turns the mouse moves into the browser's own drag events. Returns the drop (the mouse release).
 */
export async function dragOver(
  page: Page,
  sourceId: string,
  targetId: string,
  position: DropPosition,
): Promise<() => Promise<void>> {
  const source = await row(page, sourceId).boundingBox();
  if (!source) throw new Error(`no row for ${sourceId}`);
  await page.mouse.move(source.x + 48, source.y + source.height / 2);
  await page.mouse.down();
  const target = await row(page, targetId).boundingBox();
  if (!target) throw new Error(`no row for ${targetId}`);
  const y = {
    before: target.y + target.height * 0.1,
    after: target.y + target.height * 0.9,
    into: target.y + target.height / 2,
  }[position];
  await page.mouse.move(target.x + 64, y, { steps: 6 });
  // A browser keeps sending dragover while the pointer rests; Chromium under Playwright sends one
  // per mouse move, and may skip one that comes too soon after the last: the pointer rests here
  // (moves in place) until the page shows the indicator.
  const indicator = page.locator(`li[data-node-id="${targetId}"] > .tree-row[data-drop="${position}"]`);
  const deadline = Date.now() + BROWSER_WAIT_MS;
  while (!(await indicator.isVisible())) {
    if (Date.now() > deadline) {
      const shown = await page.evaluate(() =>
        Array.from((globalThis as any).document.querySelectorAll('[data-drop]') as ArrayLike<any>).map(
          (element) => `${element.parentElement?.getAttribute('data-node-id')}: ${element.getAttribute('data-drop')}`,
        ),
      );
      throw new Error(
        `no ${position} indicator on ${targetId} (pointer at ${y} in ${JSON.stringify(target)}); ` +
          `shown: ${JSON.stringify(shown)}`,
      );
    }
    await page.mouse.move(target.x + 64, y);
  }
  return () => page.mouse.up();
}

/**
 * Holds every request of the GraphQL operation `operationName` sent to `url` until release():
 * what the page shows before the server answers can then be checked.
 */
export async function holdOperation(page: Page, url: string, operationName: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reached!: () => void;
  const held = new Promise<void>((resolve) => (reached = resolve));
  const handling = new Set<Promise<void>>();
  const bodies: string[] = [];
  await page.route(url, (route) => {
    const handled = (async () => {
      const request = route.request();
      if (
        request.method() === 'POST' &&
        (request.postDataJSON() as { operationName?: string } | null)?.operationName === operationName
      ) {
        bodies.push(request.postData() ?? '');
        reached();
        await released;
      }
      await route.continue();
    })();
    handling.add(handled);
    return handled.finally(() => handling.delete(handled));
  });
  return {
    /** Resolves once a request of the operation is held. */
    held,
    /** The bodies of the requests held so far. */
    requests: () => [...bodies],
    /** Lets the held requests go on, and stops holding. */
    async release() {
      release();
      await Promise.all(handling);
      await page.unroute(url);
    },
  };
}
