import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signDevToken } from '../../src/auth/devToken.js';
import {
  BROWSER_WAIT_MS,
  launchBrowser,
  nonLocalRequests,
  recordRequests,
  saveScreenshot,
  type HeadlessBrowser,
  type StaticServer,
} from '../support/browser.js';
import { pauseTransaction } from '../support/pause.js';
import { startTestServer, uniqueTable, type TestServer } from '../support/server.js';
import { startExample, type Example, type ExampleTree } from './explorerApp.js';
import { dragOver, row, waitForBreadcrumbs, waitForChildren, waitForList } from './explorerPage.js';

/**
 * The example app (examples/tree-explorer) as a user runs it: built by Vite, served from its own
 * origin, calling the server cross-origin (CORS_ORIGINS names the app's origin), in headless
 * Chromium. Paging, breadcrumbs, a move through the dialog, a refused move (CYCLE), a node shared
 * through the Share dialog and what a grantee sees shared with it, and the progress of a dropped
 * move and of a delete that run as jobs. Dragging, the keyboard, editing and failures in detail:
 * explorer.browser.test.ts.
 */

const TREE: ExampleTree = [
  { id: 'garden', name: 'Garden' },
  ...['roses', 'tulips', 'oaks', 'ferns', 'herbs', 'mosses', 'vines'].map((id) => ({
    id,
    name: id[0]!.toUpperCase() + id.slice(1),
    parentId: 'garden',
  })),
  { id: 'red-oak', name: 'Red oak', parentId: 'oaks' },
  { id: 'white-oak', name: 'White oak', parentId: 'oaks' },
  { id: 'shed', name: 'Shed' },
  { id: 'tools', name: 'Tools', parentId: 'shed' },
  { id: 'pond', name: 'Pond' },
];

describe('the tree explorer example in a browser', () => {
  let example: Example;
  let site: StaticServer;
  let server: TestServer;
  let browser: HeadlessBrowser;
  let page: Page;
  let requests: string[];

  beforeAll(async () => {
    [example, browser] = await Promise.all([startExample({}, TREE), launchBrowser()]);
    ({ site, server } = example);
    page = await browser.newPage();
    requests = recordRequests(page);
  });

  afterAll(async () => {
    await browser?.close();
    await example?.close();
  });

  it('lists the roots, from another origin than the API', async () => {
    await page.goto(`${site.origin}/`);
    await waitForChildren(page, null, ['garden', 'shed', 'pond']);
    expect(new URL(server.url).origin).not.toBe(site.origin);
  });

  it('loads children page by page, two levels deep', async () => {
    await page.getByRole('button', { name: 'Expand Garden' }).click();
    await waitForChildren(page, 'garden', ['roses', 'tulips', 'oaks', 'ferns', 'herbs']);
    await page.getByRole('button', { name: 'Load more children of Garden' }).click();
    await waitForChildren(page, 'garden', ['roses', 'tulips', 'oaks', 'ferns', 'herbs', 'mosses', 'vines']);
    await page.getByRole('button', { name: 'Load more children of Garden' }).waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Expand Oaks' }).click();
    await waitForChildren(page, 'oaks', ['red-oak', 'white-oak']);
  });

  it('shows the breadcrumbs of the selected node', async () => {
    await row(page, 'white-oak').getByRole('button', { name: 'White oak' }).click();
    await waitForBreadcrumbs(page, ['Garden', 'Oaks', 'White oak']);
    // A crumb selects that ancestor.
    await page.locator('nav[aria-label="Breadcrumbs"]').getByRole('button', { name: 'Oaks' }).click();
    await waitForBreadcrumbs(page, ['Garden', 'Oaks']);
  });

  it('moves a node under another through the dialog, and the tree follows', async () => {
    await page.getByRole('button', { name: 'Move…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('New parent id').fill('shed');
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    // Oaks is now the last child of Shed (opened for it), still open, with its subtree.
    await waitForChildren(page, 'shed', ['tools', 'oaks']);
    await waitForChildren(page, 'oaks', ['red-oak', 'white-oak']);
    // Garden's first page no longer has it.
    await waitForChildren(page, 'garden', ['roses', 'tulips', 'ferns', 'herbs', 'mosses']);
    await waitForBreadcrumbs(page, ['Shed', 'Oaks']);

    const moved = await server.gql(`{ node(id: "oaks") { parentId depth } }`);
    expect(moved.body.data).toEqual({ node: { parentId: 'shed', depth: 1 } });
  });

  it('shows the CYCLE refusal when a node is moved under its own child', async () => {
    await page.getByRole('button', { name: 'Move…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('New parent id').fill('red-oak');
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();

    const refusal = dialog.getByRole('alert');
    await refusal.locator('.code', { hasText: 'CYCLE' }).waitFor();
    expect((await refusal.locator('.message').textContent())?.trim()).not.toBe('');
    // The dialog stays open and the tree is unchanged.
    await dialog.waitFor();
    await waitForChildren(page, 'shed', ['tools', 'oaks']);
    const unchanged = await server.gql(`{ node(id: "oaks") { parentId } }`);
    expect(unchanged.body.data).toEqual({ node: { parentId: 'shed' } });

    await saveScreenshot(page, 'example.png');
    expect(nonLocalRequests(requests)).toEqual([]);
    expect(browser.problems).toEqual([]);
  });

  it('shares the node through the Share dialog, changes its level, removes it, shows a refused principal', async () => {
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    const share = page.getByRole('button', { name: 'Share…' });
    await share.click();
    const dialog = page.getByRole('dialog', { name: 'Share Oaks' });
    const principal = dialog.getByLabel('Principal');
    // The field has the focus first, and says which principals there are.
    await expect
      .poll(() => principal.evaluate((field) => field === (globalThis as any).document.activeElement))
      .toBe(true);
    expect(await dialog.locator('#share-principal-hint').textContent()).toContain('sub:<token subject>');
    await dialog.getByText('No grant on this node').waitFor();

    await principal.fill('sub:someone');
    await dialog.getByLabel('Level', { exact: true }).selectOption('READ');
    await dialog.getByRole('button', { name: 'Share', exact: true }).click();
    const granted = dialog.locator('li[data-principal="sub:someone"]');
    await granted.waitFor();
    expect(await granted.getByLabel('Level of sub:someone').inputValue()).toBe('READ');
    expect(await granted.textContent()).toContain('by example-app');
    await expect.poll(() => principal.inputValue()).toBe('');
    const listed = await server.gql('{ node(id: "oaks") { grants { principal level grantedBy } } }');
    expect(listed.body.data).toEqual({
      node: { grants: [{ principal: 'sub:someone', level: 'READ', grantedBy: 'example-app' }] },
    });

    // Its level changed in place, then the grant removed.
    await granted.getByLabel('Level of sub:someone').selectOption('WRITE');
    await expect
      .poll(async () => (await server.gql('{ node(id: "oaks") { grants { level } } }')).body.data)
      .toEqual({ node: { grants: [{ level: 'WRITE' }] } });
    await granted.getByRole('button', { name: 'Remove' }).click();
    await granted.waitFor({ state: 'detached' });
    const none = await server.gql('{ node(id: "oaks") { grants { principal } } }');
    expect(none.body.data).toEqual({ node: { grants: [] } });

    // A principal of none of the three forms: refused, shown, and left in the field to correct.
    await principal.fill('user:someone');
    await dialog.getByRole('button', { name: 'Share', exact: true }).click();
    const refusal = dialog.getByRole('alert');
    await refusal.locator('.code', { hasText: 'BAD_USER_INPUT' }).waitFor();
    expect((await refusal.locator('.message').textContent())?.trim()).not.toBe('');
    expect(await principal.inputValue()).toBe('user:someone');
    const still = await server.gql('{ node(id: "oaks") { grants { principal } } }');
    expect(still.body.data).toEqual({ node: { grants: [] } });

    // Escape closes it, and the focus goes back to its button.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(() => share.evaluate((button) => button === (globalThis as any).document.activeElement))
      .toBe(true);
    expect(browser.problems).toEqual([]);
  });

  it('lists what is shared with a grantee, five at a time, each a link to a node it may not share', async () => {
    const shared = ['ferns', 'herbs', 'mosses', 'roses', 'tulips', 'vines'];
    const setGrant = async (id: string, give: boolean) => {
      const mutation = give
        ? 'mutation ($id: ID!) { grantAccess(nodeId: $id, principal: "sub:ana", level: READ) { level } }'
        : 'mutation ($id: ID!) { revokeAccess(nodeId: $id, principal: "sub:ana") }';
      expect((await server.gql(mutation, { id })).body.errors).toBeUndefined();
    };
    for (const id of shared) await setGrant(id, true);
    // Ana's token gives nothing on whole trees (`tree token --sub ana --trees ''`): only what is shared.
    const ana = await signDevToken(server.config.auth, 'ana', 1, undefined, { trees: {} });
    const other = await browser.newPage();
    try {
      await other.route(`${server.url}/graphql`, (route) =>
        route.continue({ headers: { ...route.request().headers(), authorization: `Bearer ${ana}` } }),
      );
      await other.goto(`${site.origin}/`);
      const items = 'section[aria-label="Shared with me"] li';
      await waitForList(other, items, shared.slice(0, 5), 'data-shared-id');
      const panel = other.getByRole('region', { name: 'Shared with me' });
      await panel.getByRole('button', { name: 'Load more shared' }).click();
      await waitForList(other, items, shared, 'data-shared-id');
      await panel.getByRole('button', { name: 'Load more shared' }).waitFor({ state: 'detached' });
      expect(await panel.locator('li[data-shared-id="tulips"]').textContent()).toContain('READ');
      await panel.getByRole('button', { name: 'Tulips' }).click();
      await other.locator('.details[data-node-id="tulips"] h2', { hasText: 'Tulips' }).waitFor();
      // Ana may read it, not administer it: no Share button.
      await other.getByRole('button', { name: 'Move…' }).waitFor();
      expect(await other.getByRole('button', { name: 'Share…' }).count()).toBe(0);
    } finally {
      await other.close();
      for (const id of shared) await setGrant(id, false);
    }
    expect(browser.problems).toEqual([]);
  });

  it("shows another page's changes live, with no reload: a colleague's rename, a move in the first page", async () => {
    const other = await browser.newPage();
    try {
      await other.goto(`${site.origin}/`);
      await waitForChildren(other, null, ['garden', 'shed', 'pond']);
      await other.getByRole('button', { name: 'Expand Shed' }).click();
      await waitForChildren(other, 'shed', ['tools', 'oaks']);
      const loads = await other.evaluate(
        () => (globalThis as any).performance.getEntriesByType('navigation').length as number,
      );

      // A colleague's changes, through the API: a rename, then a root moved under Shed.
      const renamed = await server.gql('mutation { updateNode(id: "tools", name: "Garden tools") { id } }');
      expect(renamed.body.errors).toBeUndefined();
      await row(other, 'tools').getByRole('button', { name: 'Garden tools' }).waitFor({ timeout: 5000 });
      // A move in the first page, through its dialog (the refused move's dialog closed first): Pond under Shed.
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await row(page, 'pond').getByRole('button', { name: 'Pond' }).click();
      await page.getByRole('button', { name: 'Move…' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('New parent id').fill('shed');
      await dialog.getByRole('button', { name: 'Move', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await waitForChildren(other, 'shed', ['tools', 'oaks', 'pond']);
      await waitForChildren(other, null, ['garden', 'shed']);
      expect(
        await other.evaluate(() => (globalThis as any).performance.getEntriesByType('navigation').length as number),
      ).toBe(loads);
    } finally {
      await other.close();
    }
  });

  it('resumes from its last change after its connection drops: a change made meanwhile still shows', async () => {
    const other = await browser.newPage();
    // The page's WebSockets, passed through to the server, so that the test can cut them.
    const sockets: Array<{ close(options?: { code?: number; reason?: string }): Promise<void> }> = [];
    await other.routeWebSocket(/\/graphql$/, (socket) => {
      socket.connectToServer();
      sockets.push(socket);
    });
    const rename = async (name: string) => {
      const renamed = await server.gql('mutation($name: String!) { updateNode(id: "tools", name: $name) { id } }', {
        name,
      });
      expect(renamed.body.errors).toBeUndefined();
    };
    const shows = (name: string) => row(other, 'tools').getByRole('button', { name, exact: true });
    try {
      await other.goto(`${site.origin}/`);
      await other.getByRole('button', { name: 'Expand Shed' }).click();
      await waitForChildren(other, 'shed', ['tools', 'oaks', 'pond']);
      // A first change seen live: the page holds its cursor.
      for (let tries = 0; !(await shows('Tools 1').isVisible()); tries++) {
        if (tries > 30) throw new Error('the page never showed a change');
        await rename('Tools 1');
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      // The connection drops; a change is made before the page subscribes again (a second later).
      expect(sockets.length).toBeGreaterThan(0);
      for (const socket of sockets.splice(0)) await socket.close({ code: 1012, reason: 'cut by the test' });
      await rename('Tools while away');
      await shows('Tools while away').waitFor({ timeout: 10_000 });
      expect(sockets.length, 'the page connected again').toBeGreaterThan(0);
    } finally {
      await other.close();
    }
  });
});

/**
 * Under path, with transactions of at most 10 items, moving a subtree of 13 nodes is a job: it
 * claims the subtree (3 transactions: the moved node, then its 12 children 9 at a time), commits
 * the move as it accepts it (the 4th), and the mutation (here from a drop) answers; the job
 * rewrites the paths in the background. A fault middleware holds the job's first rewrite (the 5th
 * transaction after arm()), so that the progress display can be seen; once released, the job
 * finishes and the display goes away.
 */
const SEEDLINGS = Array.from({ length: 12 }, (_, i) => `seedling-${i + 1}`);
const NURSERY: ExampleTree = [
  { id: 'greenhouse', name: 'Greenhouse' },
  { id: 'bench', name: 'Bench', parentId: 'greenhouse' },
  { id: 'nursery', name: 'Nursery' },
  ...SEEDLINGS.map((id, i) => ({ id, name: `Seedling ${i + 1}`, parentId: 'nursery' })),
];

describe('the tree explorer example while a move runs as a job', () => {
  const pause = pauseTransaction(5);
  let example: Example;
  let browser: HeadlessBrowser;
  let page: Page;

  beforeAll(async () => {
    [example, browser] = await Promise.all([
      startExample({ strategy: 'path', env: { TRANSACTION_ITEMS: '10' }, middleware: pause.middleware }, NURSERY),
      launchBrowser(),
    ]);
    page = await browser.newPage();
  });

  afterAll(async () => {
    pause.release(); // never leave the job held, whatever failed
    await browser?.close();
    await example?.close();
  });

  it('shows the progress of a big move while its job runs, and the tree once it is done', async () => {
    const { site, server } = example;
    await page.goto(`${site.origin}/`);
    await waitForChildren(page, null, ['greenhouse', 'nursery']);
    await row(page, 'nursery').getByRole('button', { name: 'Nursery', exact: true }).click();
    await waitForBreadcrumbs(page, ['Nursery']);
    await row(page, 'greenhouse').getByRole('button', { name: 'Expand Greenhouse' }).click();
    await waitForChildren(page, 'greenhouse', ['bench']);

    // Dragged into Bench: the mutation answers at once, with the job running.
    pause.arm();
    const drop = await dragOver(page, 'nursery', 'bench', 'into');
    await drop();
    await pause.reached;

    // While the job is held: a live progress line (a move does not count its nodes beforehand),
    // the details say so, and reads already show Nursery under Bench.
    const jobs = page.getByRole('status', { name: 'Background jobs' });
    const progress = jobs.locator('.job', { hasText: /^Moving Nursery… 0 nodes$/ });
    await progress.waitFor();
    expect(await jobs.getAttribute('aria-live')).toBe('polite');
    await progress.getByRole('progressbar', { name: 'Moving Nursery' }).waitFor();
    await page.getByText('Its subtree is still being moved in the background').waitFor();
    await waitForChildren(page, 'bench', ['nursery']);
    await waitForBreadcrumbs(page, ['Greenhouse', 'Bench', 'Nursery']);
    const during = await server.gql(`{ node(id: "nursery") { pendingJob { kind status } } }`);
    expect(during.body.data).toEqual({ node: { pendingJob: { kind: 'MOVE', status: 'RUNNING' } } });
    // The page stays usable: a node can be opened and selected meanwhile.
    await page.getByRole('button', { name: 'Expand Nursery' }).click();
    await waitForChildren(page, 'nursery', SEEDLINGS.slice(0, 5));
    await saveScreenshot(page, 'example-move-job.png');
    await progress.waitFor(); // still held

    pause.release();
    await jobs.locator('.job').waitFor({ state: 'detached' });
    await page.getByText('Its subtree is still being moved in the background').waitFor({ state: 'detached' });
    await waitForChildren(page, null, ['greenhouse']);
    await waitForChildren(page, 'greenhouse', ['bench']);
    await waitForChildren(page, 'bench', ['nursery']);
    await waitForChildren(page, 'nursery', SEEDLINGS.slice(0, 5));

    const after = await server.gql(
      `{ node(id: "nursery") { parentId depth pendingJob { id } } jobs { nodes { kind status } } }`,
    );
    expect(after.body.data).toEqual({
      node: { parentId: 'bench', depth: 2, pendingJob: null },
      jobs: { nodes: [{ kind: 'MOVE', status: 'DONE' }] },
    });
    expect(browser.problems).toEqual([]);
  });

  it('deletes the subtree as a job too, after a confirmation naming its size, and selects the parent', async () => {
    // The size comes from the server's count, one request, not from paging through the subtree.
    const operations: string[] = [];
    const record = (request: Request) => {
      const body = request.method() === 'POST' ? request.postData() : null;
      if (body?.includes('"operationName"')) operations.push(String(JSON.parse(body).operationName));
    };
    page.on('request', record);
    await page.getByRole('button', { name: 'Delete…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Nursery' });
    await confirm.getByText('Delete Nursery and its 12 descendants?').waitFor();
    page.off('request', record);
    expect(operations.filter((name) => name.startsWith('Descendant'))).toEqual(['DescendantCount']);
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await confirm.waitFor({ state: 'detached' });
    await waitForBreadcrumbs(page, ['Greenhouse', 'Bench']);
    await page.locator('li[data-node-id="nursery"]').waitFor({ state: 'detached' });
    await page.getByRole('status', { name: 'Background jobs' }).locator('.job').waitFor({ state: 'detached' });

    const after = await example.server.gql(`{ node(id: "bench") { childCount } jobs { nodes { kind status } } }`);
    expect(after.body.data).toEqual({
      node: { childCount: 0 },
      jobs: {
        nodes: [
          { kind: 'MOVE', status: 'DONE' },
          { kind: 'DELETE', status: 'DONE' },
        ],
      },
    });
    expect(browser.problems).toEqual([]);
  });
});

/** The selected node's fields in the details panel, `dt` to `dd` (an input: its value). */
function detailsFields(page: Page): Promise<Record<string, string>> {
  return page.evaluate(() => {
    const terms = Array.from((globalThis as any).document.querySelectorAll('.details dl.fields dt') as ArrayLike<any>);
    return Object.fromEntries(
      terms.map((term) => {
        const input = term.nextElementSibling.querySelector('input');
        return [term.textContent.trim(), input ? String(input.value) : term.nextElementSibling.textContent.trim()];
      }),
    );
  });
}

describe('the tree explorer on the typed demo catalogue (NODE_TYPES=schema/catalog.graphql)', () => {
  let example: Example;
  let browser: HeadlessBrowser;
  let page: Page;
  const product = async (id: string) =>
    (await example.server.gql(`{ node(id: "${id}") { __typename name version ... on Product { slug price status } } }`))
      .body.data.node;

  beforeAll(async () => {
    // The server seeds its demo tree, typed: Categories, and Products under a few of them.
    [example, browser] = await Promise.all([startExample({ env: { SEED_DEMO: 'true' } }, []), launchBrowser()]);
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await example?.close();
  });

  it("shows a Category's and a Product's fields, and sets a price with the version it read", async () => {
    await page.goto(`${example.site.origin}/`);
    await waitForChildren(page, null, ['catalog']);
    for (const [name, children] of [
      ['Catalog', ['electronics', 'home', 'sports']],
      ['Electronics', ['computers', 'phones', 'audio']],
      ['Computers', ['laptops', 'desktops', 'tablets']],
      ['Laptops', ['aero-13', 'aero-15', 'workbook-14']],
    ] as const) {
      await page.getByRole('button', { name: `Expand ${name}` }).click();
      await waitForChildren(page, name.toLowerCase(), [...children]);
    }
    await row(page, 'electronics').getByRole('button', { name: 'Electronics', exact: true }).click();
    await waitForBreadcrumbs(page, ['Catalog', 'Electronics']);
    expect(await detailsFields(page)).toMatchObject({
      type: 'Category',
      slug: 'electronics',
      title: 'Computers, phones and audio',
    });

    await row(page, 'aero-13').getByRole('button', { name: 'Aero 13', exact: true }).click();
    await waitForBreadcrumbs(page, ['Catalog', 'Electronics', 'Computers', 'Laptops', 'Aero 13']);
    expect(await detailsFields(page)).toMatchObject({
      type: 'Product',
      slug: 'aero-13',
      status: 'LIVE',
      price: '1199',
      version: '1',
    });
    // No children under a Product: no form for one.
    expect(await page.getByRole('form', { name: 'New child of Aero 13' }).count()).toBe(0);

    // A colleague's new price shows live, with its version: the next price is sent with it.
    const colleague = await example.server.gql(
      'mutation { updateNode(id: "aero-13", product: { price: 1149 }) { version } }',
    );
    expect(colleague.body.data).toEqual({ updateNode: { version: 2 } });
    await expect.poll(() => detailsFields(page), { timeout: BROWSER_WAIT_MS }).toMatchObject({ price: '1149' });
    const price = page.getByRole('form', { name: 'Price of Aero 13' });
    await price.getByLabel('New price of Aero 13').fill('1099.5');
    await price.getByRole('button', { name: 'Save price' }).click();
    await expect
      .poll(() => detailsFields(page), { timeout: BROWSER_WAIT_MS })
      .toMatchObject({ price: '1099.5', version: '3' });
    await saveScreenshot(page, 'example-catalog.png');
    expect(await product('aero-13')).toEqual({
      __typename: 'Product',
      name: 'Aero 13',
      version: 3,
      slug: 'aero-13',
      price: 1099.5,
      status: 'LIVE',
    });
    expect(browser.problems).toEqual([]);
  });

  it('creates a Product (slug from its name, a price) and a Category from the details panel', async () => {
    await row(page, 'laptops').getByRole('button', { name: 'Laptops', exact: true }).click();
    const form = page.getByRole('form', { name: 'New child of Laptops' });
    // A Category's children are Categories unless the form says otherwise.
    expect(await form.getByLabel('Type').inputValue()).toBe('Category');
    await form.getByLabel('Type').selectOption('Product');
    await form.getByRole('textbox', { name: 'New child of Laptops' }).fill('Aero 17');
    await form.getByLabel('Price').fill('1799');
    await form.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('status', { name: 'Tree changes' }).getByText('Created Aero 17 in Laptops.').waitFor();
    const laptops = await example.server.gql(
      '{ node(id: "laptops") { children { nodes { id ... on Product { slug price status } } } } }',
    );
    const created = laptops.body.data.node.children.nodes.at(-1);
    expect(created).toMatchObject({ slug: 'aero-17', price: 1799, status: 'DRAFT' });
    await waitForChildren(page, 'laptops', ['aero-13', 'aero-15', 'workbook-14', created.id]);
    await expect
      .poll(() => detailsFields(page), { timeout: BROWSER_WAIT_MS })
      .toMatchObject({ type: 'Product', slug: 'aero-17', price: '1799' });

    await row(page, 'computers').getByRole('button', { name: 'Computers', exact: true }).click();
    const category = page.getByRole('form', { name: 'New child of Computers' });
    await category.getByRole('textbox', { name: 'New child of Computers' }).fill('Monitors');
    await category.getByLabel('Slug').fill('screens');
    await category.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('status', { name: 'Tree changes' }).getByText('Created Monitors in Computers.').waitFor();
    await expect
      .poll(() => detailsFields(page), { timeout: BROWSER_WAIT_MS })
      .toMatchObject({ type: 'Category', slug: 'screens', title: '—' });
    expect(browser.problems).toEqual([]);
  });
});

describe('the tree explorer against a server that runs only its registered operations', () => {
  const dir = mkdtempSync(join(tmpdir(), 'canopy-trusted-app-'));
  let example: Example;
  let browser: HeadlessBrowser;

  beforeAll(async () => {
    const manifest = join(dir, 'manifest.json');
    execFileSync('npm', ['run', '-s', 'example:manifest', '--', manifest], {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
      stdio: 'ignore',
    });
    // The tree is made through a server without the manifest, on the same table.
    const table = uniqueTable();
    const setup = await startTestServer({ table });
    for (const node of TREE.slice(0, 4))
      await setup.gql('mutation ($input: CreateNodeInput!) { createNode(input: $input) { id } }', { input: node });
    await setup.close();
    [example, browser] = await Promise.all([
      startExample({ table, env: { TRUSTED_DOCUMENTS: manifest } }, []),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await example?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists, expands and selects with the operations it registered, and nothing is refused', async () => {
    const page = await browser.newPage();
    await page.goto(`${example.site.origin}/`);
    const roots = TREE.slice(0, 4)
      .filter((node) => !node.parentId)
      .map((node) => node.id);
    await waitForChildren(page, null, roots);
    const first = TREE.slice(0, 4).find((node) => node.parentId === roots[0])!;
    await page.getByRole('button', { name: `Expand ${TREE.find((node) => node.id === roots[0])!.name}` }).click();
    await waitForChildren(
      page,
      roots[0]!,
      TREE.slice(0, 4)
        .filter((node) => node.parentId === roots[0])
        .map((node) => node.id),
    );
    await row(page, first.id).getByRole('button', { name: first.name }).click();
    await waitForBreadcrumbs(page, [TREE.find((node) => node.id === roots[0])!.name, first.name]);
    expect(browser.problems).toEqual([]);
    const other = await example.server.gql('{ roots { nodes { id } } }');
    expect(other.body.errors?.map((e) => e.extensions?.code)).toEqual(['PERSISTED_QUERY_NOT_IN_LIST']);
  });
});
