import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  recordRequests,
  saveScreenshot,
  serveStatic,
  type HeadlessBrowser,
  type StaticServer,
} from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/server.js';
import {
  createTree,
  EXAMPLE_CONFIG,
  EXAMPLE_NODE_TYPES,
  startExample,
  withEnv,
  type Example,
  type ExampleTree,
} from './explorerApp.js';
import {
  dragOver,
  focusedItem,
  holdOperation,
  item,
  row,
  tabbableItems,
  waitForBreadcrumbs,
  waitForChildren,
  waitForFocus,
  waitForTree,
} from './explorerPage.js';

/**
 * The example app as a tree explorer, in headless Chromium against a real server: the WAI-ARIA
 * tree and its keys, moves by dragging (before, after, into) and from the keyboard, shown at once
 * and rolled back when the server refuses, create / rename / delete, restore, copy, undo and
 * history, a failed load retried, the
 * messages for a server that cannot be reached or does not allow the page's origin, and the Vite
 * dev proxy. Every change is read back through the API.
 */

const capitalized = (id: string) => id[0]!.toUpperCase() + id.slice(1).replace('-', ' ');
const node = (id: string, parentId?: string) => ({ id, name: capitalized(id), ...(parentId ? { parentId } : {}) });

const TREE: ExampleTree = [
  node('garden'),
  node('roses', 'garden'),
  node('tulips', 'garden'),
  node('oaks', 'garden'),
  node('red-oak', 'oaks'),
  node('white-oak', 'oaks'),
  node('ferns', 'garden'),
  node('shed'),
  node('tools', 'shed'),
  node('pond'),
  node('compost'),
  node('worms', 'compost'),
];

/** The ids of a node's children (null: the roots), as the API has them. */
async function childrenOf(server: TestServer, parentId: string | null): Promise<string[]> {
  const query =
    parentId === null
      ? await server.gql<{ roots: { nodes: Array<{ id: string }> } }>('{ roots { nodes { id } } }')
      : await server.gql<{ node: { children: { nodes: Array<{ id: string }> } } }>(
          'query ($id: ID!) { node(id: $id) { children { nodes { id } } } }',
          { id: parentId },
        );
  expect(query.body.errors).toBeUndefined();
  const data = query.body.data!;
  return ('roots' in data ? data.roots : data.node.children).nodes.map((n) => n.id);
}

/** The problems the browser reported since `from` (an index in `browser.problems`), but those matching `expected`. */
const problemsSince = (browser: HeadlessBrowser, from: number, expected: RegExp[] = []) =>
  browser.problems.slice(from).filter((problem) => !expected.some((pattern) => pattern.test(problem)));

const moveRefusal = (page: Page) => page.locator('.tree-pane [role="alert"].move-refusal');
const announcer = (page: Page) => page.getByRole('status', { name: 'Tree changes' });

describe('the tree explorer: keyboard, dragging, editing', () => {
  let example: Example;
  let server: TestServer;
  let browser: HeadlessBrowser;
  let page: Page;
  let api: string;

  beforeAll(async () => {
    [example, browser] = await Promise.all([startExample({}, TREE), launchBrowser()]);
    server = example.server;
    api = `${server.url}/graphql`;
    page = await browser.newPage();
    // The page follows its trees live (liveTrees.ts): a test can hold the changes back on their way.
    await page.routeWebSocket(/\/graphql$/, (socket) => {
      const upstream = socket.connectToServer();
      upstream.onMessage((message) => {
        if (live.holding) live.held.push(() => socket.send(message));
        else socket.send(message);
      });
    });
  });
  /** The live changes held back from the page while `holding` (changes that have not reached it yet). */
  const live = {
    holding: false,
    held: [] as Array<() => void>,
    release() {
      this.holding = false;
      for (const send of this.held.splice(0)) send();
    },
  };

  afterAll(async () => {
    await browser?.close();
    await example?.close();
  });

  it('is a WAI-ARIA tree: arrow keys move the focus, Right and Left open and close, one item takes Tab', async () => {
    await page.goto(`${example.site.origin}/`);
    await waitForTree(page, ['garden [-] 1/4', 'shed [-] 2/4', 'pond 3/4', 'compost [-] 4/4']);
    expect(await tabbableItems(page)).toEqual(['garden']);

    // Tab enters the tree on its one tabbable item.
    await page.keyboard.press('Tab');
    await waitForFocus(page, 'garden');
    await page.keyboard.press('ArrowDown');
    await waitForFocus(page, 'shed');
    expect(await tabbableItems(page)).toEqual(['shed']);
    await page.keyboard.press('ArrowUp');
    await waitForFocus(page, 'garden');

    // Right opens a closed node (the focus stays), then goes to its first child.
    await page.keyboard.press('ArrowRight');
    await waitForTree(page, [
      'garden [+] 1/4',
      '  roses 1/4',
      '  tulips 2/4',
      '  oaks [-] 3/4',
      '  ferns 4/4',
      'shed [-] 2/4',
      'pond 3/4',
      'compost [-] 4/4',
    ]);
    expect(await focusedItem(page)).toBe('garden');
    await page.keyboard.press('ArrowRight');
    await waitForFocus(page, 'roses');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await waitForFocus(page, 'oaks');
    expect(await item(page, 'oaks').getAttribute('aria-level')).toBe('2');
    await page.keyboard.press('ArrowRight');
    await waitForChildren(page, 'oaks', ['red-oak', 'white-oak']);
    expect(await item(page, 'oaks').getAttribute('aria-expanded')).toBe('true');
    expect(await item(page, 'red-oak').getAttribute('aria-level')).toBe('3');
    // Left closes an open node, then goes to the parent.
    await page.keyboard.press('ArrowLeft');
    await waitForChildren(page, 'oaks', []);
    expect(await item(page, 'oaks').getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('ArrowLeft');
    await waitForFocus(page, 'garden');
    // End and Home: the last and the first visible items.
    await page.keyboard.press('End');
    await waitForFocus(page, 'compost');
    await page.keyboard.press('Home');
    await waitForFocus(page, 'garden');
    // Enter selects (the details follow); the group holds the children.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await waitForFocus(page, 'oaks');
    await page.keyboard.press('Enter');
    await waitForBreadcrumbs(page, ['Garden', 'Oaks']);
    expect(await item(page, 'oaks').getAttribute('aria-selected')).toBe('true');
    expect(await page.locator('li[data-node-id="garden"] > [role="group"] > [role="treeitem"]').count()).toBe(4);
    expect(await tabbableItems(page)).toEqual(['oaks']);
    expect(browser.problems).toEqual([]);
  });

  it('moves a node dragged before, after or into another, at once, kept once the server agrees', async () => {
    await row(page, 'oaks').getByRole('button', { name: 'Expand Oaks' }).click();
    await waitForChildren(page, 'oaks', ['red-oak', 'white-oak']);

    // Before: Ferns above Tulips. The server's answer is held: the tree shows the move already.
    const reparent = await holdOperation(page, api, 'Reparent');
    let drop = await dragOver(page, 'ferns', 'tulips', 'before');
    await saveScreenshot(page, 'explorer-drag-before.png');
    await drop();
    await reparent.held;
    await waitForChildren(page, 'garden', ['roses', 'ferns', 'tulips', 'oaks']);
    await reparent.release();
    await waitForFocus(page, 'ferns');
    await announcer(page).getByText('Moved Ferns before Tulips.').waitFor();
    await waitForChildren(page, 'garden', ['roses', 'ferns', 'tulips', 'oaks']);
    expect(await childrenOf(server, 'garden')).toEqual(['roses', 'ferns', 'tulips', 'oaks']);

    // After: the root Pond below Red oak, two levels down.
    drop = await dragOver(page, 'pond', 'red-oak', 'after');
    await drop();
    await announcer(page).getByText('Moved Pond after Red oak.').waitFor();
    await waitForChildren(page, 'oaks', ['red-oak', 'pond', 'white-oak']);
    await waitForChildren(page, null, ['garden', 'shed', 'compost']);
    expect(await childrenOf(server, 'oaks')).toEqual(['red-oak', 'pond', 'white-oak']);
    expect(await childrenOf(server, null)).toEqual(['garden', 'shed', 'compost']);

    // Into: Tulips into Shed, closed, whose children were never loaded: it opens, Tulips comes last.
    drop = await dragOver(page, 'tulips', 'shed', 'into');
    await saveScreenshot(page, 'explorer-drag-into.png');
    await drop();
    await announcer(page).getByText('Moved Tulips into Shed.').waitFor();
    await waitForChildren(page, 'shed', ['tools', 'tulips']);
    await waitForChildren(page, 'garden', ['roses', 'ferns', 'oaks']);
    await waitForFocus(page, 'tulips');
    expect(await item(page, 'shed').getAttribute('aria-expanded')).toBe('true');
    expect(await childrenOf(server, 'shed')).toEqual(['tools', 'tulips']);
    expect(await childrenOf(server, 'garden')).toEqual(['roses', 'ferns', 'oaks']);
    expect(await moveRefusal(page).count()).toBe(0);
    expect(browser.problems).toEqual([]);
  });

  it('refuses a drop onto the node’s own descendant: CYCLE beside the tree, the tree unchanged', async () => {
    // The dragged item has the focus, before and after (the tabindex is part of the snapshot).
    await item(page, 'oaks').focus();
    const before = await page.evaluate(
      () => (globalThis as any).document.querySelector('ul[aria-label="Roots"]').outerHTML as string,
    );
    const drop = await dragOver(page, 'oaks', 'white-oak', 'into');
    await drop();
    const refusal = moveRefusal(page);
    await refusal.locator('.code', { hasText: 'CYCLE' }).waitFor();
    expect(await refusal.textContent()).toContain('Could not move Oaks into White oak');
    expect((await refusal.locator('.message').textContent())?.trim()).not.toBe('');
    await saveScreenshot(page, 'explorer-refused.png');
    expect(
      await page.evaluate(
        () => (globalThis as any).document.querySelector('ul[aria-label="Roots"]').outerHTML as string,
      ),
    ).toBe(before);
    const unchanged = await server.gql(`{ node(id: "oaks") { parentId } }`);
    expect(unchanged.body.data).toEqual({ node: { parentId: 'garden' } });
    await waitForFocus(page, 'oaks');
    // Dismissed, it goes away.
    await refusal.getByRole('button', { name: 'Dismiss' }).click();
    await refusal.waitFor({ state: 'detached' });
  });

  it('rolls back an optimistic move the server refuses (VERSION_CONFLICT); the next try goes through', async () => {
    // Another client changes Roses: the page still holds its old version (the live change is on its way).
    live.holding = true;
    const other = await server.gql(`mutation { updateNode(id: "roses", data: { watered: true }) { version } }`);
    expect(other.body.errors).toBeUndefined();
    await item(page, 'roses').focus();
    const before = await page.evaluate(
      () => (globalThis as any).document.querySelector('ul[aria-label="Roots"]').outerHTML as string,
    );

    let reparent = await holdOperation(page, api, 'Reparent');
    let drop = await dragOver(page, 'roses', 'white-oak', 'after');
    await drop();
    await reparent.held;
    // Shown at once at its new place...
    await waitForChildren(page, 'oaks', ['red-oak', 'pond', 'white-oak', 'roses']);
    await waitForChildren(page, 'garden', ['ferns', 'oaks']);
    await reparent.release();
    // ...and put back when the server refuses: the same tree, to the attribute.
    const refusal = moveRefusal(page);
    await refusal.locator('.code', { hasText: 'VERSION_CONFLICT' }).waitFor();
    expect(await refusal.textContent()).toContain('Could not move Roses after White oak');
    await waitForChildren(page, 'garden', ['roses', 'ferns', 'oaks']);
    expect(
      await page.evaluate(
        () => (globalThis as any).document.querySelector('ul[aria-label="Roots"]').outerHTML as string,
      ),
    ).toBe(before);
    expect(await childrenOf(server, 'garden')).toEqual(['roses', 'ferns', 'oaks']);
    await waitForFocus(page, 'roses');
    expect(browser.problems).toEqual([]);
    live.release();

    // The refusal made the page read Roses again: the same drop now goes through.
    reparent = await holdOperation(page, api, 'Reparent');
    drop = await dragOver(page, 'roses', 'white-oak', 'after');
    await drop();
    await reparent.held;
    expect(JSON.parse(reparent.requests()[0]!).variables).toMatchObject({
      id: 'roses',
      newParentId: 'oaks',
      after: 'white-oak',
      expectedVersion: 2,
      expectedParentId: 'garden',
    });
    await reparent.release();
    await announcer(page).getByText('Moved Roses after White oak.').waitFor();
    await refusal.waitFor({ state: 'detached' });
    await waitForChildren(page, 'oaks', ['red-oak', 'pond', 'white-oak', 'roses']);
    expect(await childrenOf(server, 'oaks')).toEqual(['red-oak', 'pond', 'white-oak', 'roses']);
    expect(await childrenOf(server, 'garden')).toEqual(['ferns', 'oaks']);
  });

  it('moves with Alt+arrow keys, announces each move, and keeps the focus on the moved node', async () => {
    await item(page, 'ferns').focus();
    // Alt+ArrowUp on the first child: nothing moves, the live region says why.
    await page.keyboard.press('Alt+ArrowUp');
    await announcer(page).getByText('Ferns is already first.').waitFor();
    // Alt+ArrowDown: after the next sibling.
    await page.keyboard.press('Alt+ArrowDown');
    await announcer(page).getByText('Moved Ferns after Oaks.').waitFor();
    await waitForChildren(page, 'garden', ['oaks', 'ferns']);
    await waitForFocus(page, 'ferns');
    expect(await childrenOf(server, 'garden')).toEqual(['oaks', 'ferns']);
    // Alt+ArrowRight: into the previous sibling, as its last child.
    await page.keyboard.press('Alt+ArrowRight');
    await announcer(page).getByText('Moved Ferns into Oaks.').waitFor();
    await waitForChildren(page, 'oaks', ['red-oak', 'pond', 'white-oak', 'roses', 'ferns']);
    await waitForFocus(page, 'ferns');
    expect(await item(page, 'ferns').getAttribute('aria-level')).toBe('3');
    expect(await item(page, 'ferns').getAttribute('aria-posinset')).toBe('5');
    expect(await childrenOf(server, 'oaks')).toEqual(['red-oak', 'pond', 'white-oak', 'roses', 'ferns']);
    // Alt+ArrowLeft: out of its parent, right after it.
    await page.keyboard.press('Alt+ArrowLeft');
    await announcer(page).getByText('Moved Ferns after Oaks.').waitFor();
    await waitForChildren(page, 'garden', ['oaks', 'ferns']);
    await waitForFocus(page, 'ferns');
    expect(await item(page, 'ferns').getAttribute('aria-level')).toBe('2');
    // Alt+ArrowUp: before the previous sibling.
    await page.keyboard.press('Alt+ArrowUp');
    await announcer(page).getByText('Moved Ferns before Oaks.').waitFor();
    await waitForChildren(page, 'garden', ['ferns', 'oaks']);
    await waitForFocus(page, 'ferns');
    expect(await childrenOf(server, 'garden')).toEqual(['ferns', 'oaks']);
    expect(await childrenOf(server, 'oaks')).toEqual(['red-oak', 'pond', 'white-oak', 'roses']);
    // Still the same page: Alt+ArrowLeft did not go back in the history.
    expect(new URL(page.url()).origin).toBe(example.site.origin);
    expect(browser.problems).toEqual([]);
  });

  it('creates a child, renames it in place, and deletes a subtree after a confirmation naming its size', async () => {
    // Create: a child of the selected node, from the details panel.
    await row(page, 'oaks').getByRole('button', { name: 'Oaks', exact: true }).click();
    await waitForBreadcrumbs(page, ['Garden', 'Oaks']);
    const newChild = page.getByRole('form', { name: 'New child of Oaks' });
    await newChild.getByRole('textbox').fill('Acorn');
    await newChild.getByRole('button', { name: 'Add' }).click();
    await announcer(page).getByText('Created Acorn in Oaks.').waitFor();
    const created = await server.gql<{ node: { children: { nodes: Array<{ id: string; name: string }> } } }>(
      '{ node(id: "oaks") { children { nodes { id name } } } }',
    );
    const acorn = created.body.data!.node.children.nodes.at(-1)!;
    expect(acorn.name).toBe('Acorn');
    await waitForChildren(page, 'oaks', ['red-oak', 'pond', 'white-oak', 'roses', acorn.id]);
    await waitForFocus(page, acorn.id);
    await waitForBreadcrumbs(page, ['Garden', 'Oaks', 'Acorn']);

    // Rename: F2 edits the name in place; Escape cancels, Enter saves.
    await page.keyboard.press('F2');
    const field = page.getByLabel('New name for Acorn');
    await field.waitFor();
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('aria-label'))).toBe(
      'New name for Acorn',
    );
    await field.fill('Nothing');
    await page.keyboard.press('Escape');
    await field.waitFor({ state: 'detached' });
    await waitForFocus(page, acorn.id);
    expect(await row(page, acorn.id).textContent()).toBe('Acorn');
    // The details panel's Rename does the same.
    await page.locator('.details').getByRole('button', { name: 'Rename' }).click();
    await field.waitFor();
    await field.fill('Seedling oak');
    await page.keyboard.press('Enter');
    await field.waitFor({ state: 'detached' });
    await row(page, acorn.id).getByRole('button', { name: 'Seedling oak' }).waitFor();
    await announcer(page).getByText('Renamed Acorn to Seedling oak.').waitFor();
    await waitForFocus(page, acorn.id);
    const renamed = await server.gql(`query ($id: ID!) { node(id: $id) { name version } }`, { id: acorn.id });
    expect(renamed.body.data).toEqual({ node: { name: 'Seedling oak', version: 2 } });

    // Delete: the Delete key on Oaks asks first, naming the size of its subtree.
    await item(page, 'oaks').focus();
    await page.keyboard.press('Delete');
    const confirm = page.getByRole('alertdialog', { name: 'Delete Oaks' });
    await confirm.getByText('Delete Oaks and its 5 descendants?').waitFor();
    await saveScreenshot(page, 'explorer-delete.png');
    // Cancel (it has the focus): nothing happens, the focus goes back.
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    await waitForFocus(page, 'oaks');
    await page.keyboard.press('Delete');
    await confirm.getByText('Delete Oaks and its 5 descendants?').waitFor();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await confirm.waitFor({ state: 'detached' });
    await waitForChildren(page, 'garden', ['ferns']);
    // The parent takes the focus and the selection.
    await waitForFocus(page, 'garden');
    await waitForBreadcrumbs(page, ['Garden']);
    await announcer(page).getByText('Deleted Oaks (6 nodes).').waitFor();
    const gone = await server.gql(`{ oaks: node(id: "oaks") { id } roses: node(id: "roses") { id } }`);
    expect(gone.body.data).toEqual({ oaks: null, roses: null });
    expect(await childrenOf(server, 'garden')).toEqual(['ferns']);

    // A leaf: nothing else goes with it.
    await item(page, 'ferns').focus();
    await page.keyboard.press('Delete');
    const confirmLeaf = page.getByRole('alertdialog', { name: 'Delete Ferns' });
    await confirmLeaf.getByText('Delete Ferns? It has no descendants.').waitFor();
    await page.keyboard.press('Escape');
    await confirmLeaf.waitFor({ state: 'detached' });

    // A new root, from the tree pane.
    const newRoot = page.getByRole('form', { name: 'New root' });
    await newRoot.getByRole('textbox').fill('Orchard');
    await newRoot.getByRole('button', { name: 'Add' }).click();
    await announcer(page).getByText('Created the root Orchard.').waitFor();
    const roots = await childrenOf(server, null);
    expect(roots.slice(0, 3)).toEqual(['garden', 'shed', 'compost']);
    expect(roots).toHaveLength(4);
    await waitForChildren(page, null, roots);
    await waitForFocus(page, roots[3]!);
    expect(await tabbableItems(page)).toEqual([roots[3]]);
    await saveScreenshot(page, 'explorer.png');
    expect(browser.problems).toEqual([]);
  });

  it('restores a deleted subtree, copies (Ctrl+drag, dialog), undoes (button, Ctrl+Z), shows history', async () => {
    // Recently deleted: Oaks, deleted above, comes back whole where it was.
    const deleted = page.getByRole('region', { name: 'Recently deleted' });
    await deleted.locator('li[data-deleted-id="oaks"]').getByRole('button', { name: 'Restore' }).click();
    await announcer(page).getByText('Restored Oaks.').waitFor();
    await waitForChildren(page, 'garden', ['ferns', 'oaks']);
    const back = await server.gql('{ node(id: "oaks") { descendantCount children { nodes { id } } } }');
    expect(back.body.data.node.descendantCount).toBe(5);
    await deleted.locator('li[data-deleted-id="oaks"]').waitFor({ state: 'detached' });

    // A drop with Ctrl held copies: Tools stays in Shed, its copy goes after Ferns.
    await page.keyboard.down('Control');
    const drop = await dragOver(page, 'tools', 'ferns', 'after');
    await drop();
    await page.keyboard.up('Control');
    await announcer(page).getByText('Copied Tools after Ferns (1 nodes).').waitFor();
    const garden = await childrenOf(server, 'garden');
    expect(garden).toHaveLength(3);
    const [copyId] = garden.filter((id) => id !== 'ferns' && id !== 'oaks');
    expect(garden).toEqual(['ferns', copyId, 'oaks']);
    expect(await childrenOf(server, 'shed')).toEqual(['tools', 'tulips']);
    await waitForChildren(page, 'garden', garden);

    // The Undo button takes the last change made in this tab back: the copy goes.
    const undoButton = page.getByRole('button', { name: 'Undo copy of Tools' });
    await undoButton.click();
    await announcer(page).getByText('Undid the copy of Tools.').waitFor();
    await waitForChildren(page, 'garden', ['ferns', 'oaks']);
    expect(await childrenOf(server, 'garden')).toEqual(['ferns', 'oaks']);

    // Ctrl+Z: a rename taken back.
    await row(page, 'ferns').getByRole('button', { name: 'Ferns', exact: true }).click();
    await page.locator('.details').getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('New name for Ferns').fill('Bracken');
    await page.keyboard.press('Enter');
    await announcer(page).getByText('Renamed Ferns to Bracken.').waitFor();
    await item(page, 'ferns').focus();
    await page.getByRole('button', { name: 'Undo rename of Bracken' }).waitFor();
    await page.keyboard.press('Control+z');
    await announcer(page).getByText('Undid the rename of Bracken.').waitFor();
    const renamed = await server.gql('{ node(id: "ferns") { name } }');
    expect(renamed.body.data).toEqual({ node: { name: 'Ferns' } });

    // The history panel: the node's changes, newest first, the undo among them.
    const history = page.getByRole('region', { name: 'History' });
    await history.getByText('updated (was Bracken)').waitFor();
    const kinds = await history.locator('li').evaluateAll((items) => items.map((li) => li.getAttribute('data-kind')));
    expect(kinds.slice(0, 2)).toEqual(['UPDATED', 'UPDATED']);

    // The Copy… dialog: a copy of Tools, last under Garden.
    await row(page, 'tools').getByRole('button', { name: 'Tools', exact: true }).click();
    await page.locator('.details').getByRole('button', { name: 'Copy…' }).click();
    const dialog = page.getByRole('dialog', { name: /Copy Tools/ });
    await dialog.getByLabel('New parent id').fill('garden');
    await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
    await announcer(page).getByText('Copied Tools (1 nodes).').waitFor();
    const withCopy = await childrenOf(server, 'garden');
    expect(withCopy.slice(0, 2)).toEqual(['ferns', 'oaks']);
    expect(withCopy).toHaveLength(3);
    expect(browser.problems).toEqual([]);
  });

  it('shows a failed load of children inline, with a Retry that works', async () => {
    // The first request for Compost's children fails on its way; the next ones go through.
    let failed = 0;
    await page.route(api, async (route) => {
      const body = route.request().postDataJSON() as { operationName?: string; variables?: { id?: string } } | null;
      if (failed === 0 && body?.operationName === 'Children' && body.variables?.id === 'compost') {
        failed++;
        await route.abort('connectionreset');
      } else {
        await route.continue();
      }
    });
    const from = browser.problems.length;
    try {
      await row(page, 'compost').getByRole('button', { name: 'Expand Compost' }).click();
      const failure = item(page, 'compost').getByRole('alert');
      await failure.getByText(/^Could not load the children of Compost: A request to .* failed on its way/).waitFor();
      expect(await failure.locator('.code').textContent()).toBe('NETWORK_ERROR');
      await saveScreenshot(page, 'explorer-load-failed.png');
      await failure.getByRole('button', { name: 'Retry' }).click();
      await waitForChildren(page, 'compost', ['worms']);
      await failure.waitFor({ state: 'detached' });
      expect(failed).toBe(1);
    } finally {
      await page.unroute(api);
    }
    expect(problemsSince(browser, from, [/ERR_CONNECTION_RESET/])).toEqual([]);
  });

  it('says when the server does not allow the page’s origin, naming CORS_ORIGINS', async () => {
    // The same build, served from another origin than the one the server allows.
    const elsewhere: StaticServer = await serveStatic(example.outDir);
    const other = await browser.newPage();
    const from = browser.problems.length;
    try {
      await other.goto(`${elsewhere.origin}/`);
      const failure = other.locator('.tree-pane [role="alert"]');
      await failure
        .getByText(`The Canopy server at ${api} answers, but not to pages from ${elsewhere.origin}`)
        .waitFor();
      expect(await failure.textContent()).toContain('CORS_ORIGINS');
      expect(await failure.locator('.code').textContent()).toBe('ORIGIN_NOT_ALLOWED');
      await saveScreenshot(other, 'explorer-cors.png');
    } finally {
      await other.close();
      await elsewhere.close();
    }
    expect(problemsSince(browser, from, [/blocked by CORS policy/, /net::ERR_FAILED/])).toEqual([]);
  });

  it('says when the server cannot be reached', async () => {
    await example.stopServer();
    const from = browser.problems.length;
    await page.reload();
    const failure = page.locator('.tree-pane [role="alert"]');
    await failure.getByText(`Cannot reach the Canopy server at ${api}. Is it running?`).waitFor();
    expect(await failure.locator('.code').textContent()).toBe('UNREACHABLE');
    await saveScreenshot(page, 'explorer-unreachable.png');
    expect(problemsSince(browser, from, [/ERR_CONNECTION_REFUSED/])).toEqual([]);
  });
});

describe('the tree explorer through the Vite dev proxy', () => {
  const cacheDir = mkdtempSync(join(tmpdir(), 'canopy-vite-cache-'));
  let server: TestServer;
  let vite: ViteDevServer;
  let browser: HeadlessBrowser;
  let serverStopped = false;

  beforeAll(async () => {
    // No CORS_ORIGINS: the page calls its own origin, the dev server forwards to the API.
    server = await startTestServer({ env: { NODE_TYPES: EXAMPLE_NODE_TYPES } });
    await createTree(server, [node('garden'), node('roses', 'garden'), node('shed')]);
    [vite, browser] = await Promise.all([
      // As `CANOPY_API=… npm run example` does (VITE_GRAPHQL_URL unset: the page's own /graphql).
      withEnv({ CANOPY_API: server.url, VITE_GRAPHQL_URL: undefined, VITE_CANOPY_TOKEN: undefined }, async () => {
        const dev = await createServer({
          configFile: EXAMPLE_CONFIG,
          cacheDir,
          logLevel: 'silent',
          server: { host: '127.0.0.1', port: 0, strictPort: true, watch: null, hmr: false },
        });
        return dev.listen();
      }),
      launchBrowser(),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await vite?.close();
    if (!serverStopped) await server?.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it('loads the tree from the page’s own origin, without CORS_ORIGINS', async () => {
    const origin = vite.resolvedUrls!.local[0]!.replace(/\/$/, '');
    const page = await browser.newPage();
    const requests = recordRequests(page);
    await page.goto(`${origin}/`);
    await waitForChildren(page, null, ['garden', 'shed']);
    await row(page, 'garden').getByRole('button', { name: 'Expand Garden' }).click();
    await waitForChildren(page, 'garden', ['roses']);
    expect(await page.locator('.endpoint').textContent()).toBe(`${origin}/graphql`);
    const graphql = requests.filter((url) => url.endsWith('/graphql'));
    expect(graphql.length).toBeGreaterThan(0);
    expect(graphql.every((url) => url === `${origin}/graphql`)).toBe(true);
    expect(server.config.corsOrigins).toEqual([]);
    await saveScreenshot(page, 'explorer-dev-proxy.png');
    expect(browser.problems).toEqual([]);

    // The API goes away: the proxy's answer names it.
    await server.close();
    serverStopped = true;
    const from = browser.problems.length;
    await page.reload();
    const failure = page.locator('.tree-pane [role="alert"]');
    await failure.getByText(`Cannot reach the Canopy server at ${server.url}`).waitFor();
    expect(await failure.locator('.code').textContent()).toBe('CANOPY_UNREACHABLE');
    expect(problemsSince(browser, from, [/502/])).toEqual([]);
  });
});
