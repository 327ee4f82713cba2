import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  nonLocalRequests,
  recordRequests,
  saveScreenshot,
  serveStatic,
  type HeadlessBrowser,
  type StaticServer,
} from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The example app (examples/tree-explorer) as a user runs it: built by Vite, served from its own
 * origin, calling the server cross-origin (CORS_ORIGINS names the app's origin), in headless
 * Chromium. Paging, breadcrumbs, a move through the dialog, and a refused move (CYCLE).
 */

const EXAMPLE_CONFIG = fileURLToPath(new URL('../../examples/tree-explorer/vite.config.ts', import.meta.url));

const TREE: Array<{ id: string; name: string; parentId?: string }> = [
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

/** CSS for the list items directly below a node in the tree (`null`: the roots). */
const childItems = (parentId: string | null) =>
  parentId === null ? 'ul[aria-label="Roots"] > li' : `li[data-node-id="${parentId}"] > ul > li`;

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
async function waitForList(page: Page, selector: string, expected: string[], attribute?: string): Promise<void> {
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
    throw new Error(`${selector}: expected ${JSON.stringify(expected)}, still ${JSON.stringify(actual)}`, { cause: error });
  }
}

const waitForChildren = (page: Page, parentId: string | null, ids: string[]) =>
  waitForList(page, childItems(parentId), ids, 'data-node-id');

const waitForBreadcrumbs = (page: Page, names: string[]) =>
  waitForList(page, 'nav[aria-label="Breadcrumbs"] li', names);

/** Runs `action` with `vars` set in process.env, then puts the previous values back. */
async function withEnv<T>(vars: Record<string, string>, action: () => Promise<T>): Promise<T> {
  const previous = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
  Object.assign(process.env, vars);
  try {
    return await action();
  } finally {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

const row = (page: Page, id: string) => page.locator(`li[data-node-id="${id}"] > .tree-row`);

describe('the tree explorer example in a browser', () => {
  let outDir: string;
  let site: StaticServer;
  let server: TestServer;
  let browser: HeadlessBrowser;
  let page: Page;
  let requests: string[];

  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'canopy-example-'));
    // The app's origin must be known before the server starts: it is the one CORS origin allowed.
    site = await serveStatic(outDir);
    [server, browser] = await Promise.all([startTestServer({ env: { CORS_ORIGINS: site.origin } }), launchBrowser()]);

    // As `VITE_GRAPHQL_URL=... npm run example:build` does; NODE_ENV is vitest's `test` here, and
    // Vite would keep it (React's development build), so the build gets `production` back.
    await withEnv({ VITE_GRAPHQL_URL: `${server.url}/graphql`, NODE_ENV: 'production' }, () =>
      build({ configFile: EXAMPLE_CONFIG, logLevel: 'error', build: { outDir, emptyOutDir: true } }),
    );

    for (const node of TREE) {
      const created = await server.gql(`mutation ($input: CreateNodeInput!) { createNode(input: $input) { id } }`, {
        input: node,
      });
      expect(created.body.errors).toBeUndefined();
    }

    page = await browser.newPage();
    requests = recordRequests(page);
  });

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await server?.close();
    if (outDir) rmSync(outDir, { recursive: true, force: true });
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
});
