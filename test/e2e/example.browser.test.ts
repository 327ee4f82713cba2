import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signDevToken } from '../../src/auth/devToken.js';
import {
  launchBrowser,
  nonLocalRequests,
  recordRequests,
  saveScreenshot,
  serveStatic,
  type HeadlessBrowser,
  type StaticServer,
} from '../support/browser.js';
import { pauseTransaction } from '../support/pause.js';
import { startTestServer, uniqueTable, type TestServer, type TestServerOptions } from '../support/server.js';

/**
 * The example app (examples/tree-explorer) as a user runs it: built by Vite, served from its own
 * origin, calling the server cross-origin (CORS_ORIGINS names the app's origin), in headless
 * Chromium. Paging, breadcrumbs, a move through the dialog, a refused move (CYCLE), and the
 * progress of a move that runs as a job.
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

/** The JWT_SECRET of the example's server. */
const EXAMPLE_SECRET = 'the-example-app-secret-of-32-bytes-or-more';

const row = (page: Page, id: string) => page.locator(`li[data-node-id="${id}"] > .tree-row`);

interface Example {
  site: StaticServer;
  server: TestServer;
  close(): Promise<void>;
}

/**
 * A server (`options`, plus CORS_ORIGINS for the app's origin) holding `tree`, and the app built
 * for it and served from its own origin.
 */
async function startExample(options: TestServerOptions, tree: typeof TREE): Promise<Example> {
  const outDir = mkdtempSync(join(tmpdir(), 'canopy-example-'));
  let site: StaticServer | undefined;
  let server: TestServer | undefined;
  const close = async () => {
    await site?.close();
    await server?.close();
    rmSync(outDir, { recursive: true, force: true });
  };
  try {
    // The app's origin must be known before the server starts: it is the one CORS origin allowed.
    site = await serveStatic(outDir);
    // The app signs in with a development token (`npm run -s tree -- token`) to a server that
    // asks for one.
    const started = await startTestServer({ ...options, env: { ...options.env, CORS_ORIGINS: site.origin, AUTH: 'jwt', JWT_SECRET: EXAMPLE_SECRET } });
    const token = await signDevToken(started.config.auth, 'example-app');
    server = { ...started, gql: (query, variables, headers) => started.gql(query, variables, { authorization: `Bearer ${token}`, ...headers }) };

    // As `VITE_GRAPHQL_URL=... VITE_CANOPY_TOKEN=... npm run example:build` does; NODE_ENV is
    // vitest's `test` here, and Vite would keep it (React's development build), so the build gets
    // `production` back.
    await withEnv({ VITE_GRAPHQL_URL: `${server.url}/graphql`, VITE_CANOPY_TOKEN: token, NODE_ENV: 'production' }, () =>
      build({ configFile: EXAMPLE_CONFIG, logLevel: 'error', build: { outDir, emptyOutDir: true } }),
    );

    for (const node of tree) {
      const created = await server.gql(`mutation ($input: CreateNodeInput!) { createNode(input: $input) { id } }`, {
        input: node,
      });
      expect(created.body.errors).toBeUndefined();
    }
    return { site, server, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

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
});

/**
 * Under path, with transactions of at most 10 items, moving a subtree of 13 nodes is a job: the
 * mutation answers at once and the job rewrites the paths in the background. A fault middleware
 * holds the job's first transaction (the move's own is the first one after arm()), so that the
 * progress display can be seen; once released, the job finishes and the display goes away.
 */
const SEEDLINGS = Array.from({ length: 12 }, (_, i) => `seedling-${i + 1}`);
const NURSERY: typeof TREE = [
  { id: 'greenhouse', name: 'Greenhouse' },
  { id: 'bench', name: 'Bench', parentId: 'greenhouse' },
  { id: 'nursery', name: 'Nursery' },
  ...SEEDLINGS.map((id, i) => ({ id, name: `Seedling ${i + 1}`, parentId: 'nursery' })),
];

describe('the tree explorer example while a move runs as a job', () => {
  const pause = pauseTransaction(2);
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

    pause.arm();
    await page.getByRole('button', { name: 'Move…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('New parent id').fill('bench');
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    // The mutation answers at once, with the job running: the dialog closes.
    await dialog.waitFor({ state: 'detached' });
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

    const after = await server.gql(`{ node(id: "nursery") { parentId depth pendingJob { id } } jobs { nodes { kind status } } }`);
    expect(after.body.data).toEqual({
      node: { parentId: 'bench', depth: 2, pendingJob: null },
      jobs: { nodes: [{ kind: 'MOVE', status: 'DONE' }] },
    });
    expect(browser.problems).toEqual([]);
  });

  it('deletes the subtree as a job too, and selects the parent', async () => {
    page.once('dialog', (confirm) => void confirm.accept());
    await page.getByRole('button', { name: 'Delete…' }).click();
    await waitForBreadcrumbs(page, ['Greenhouse', 'Bench']);
    await page.locator('li[data-node-id="nursery"]').waitFor({ state: 'detached' });
    await page.getByRole('status', { name: 'Background jobs' }).locator('.job').waitFor({ state: 'detached' });

    const after = await example.server.gql(`{ node(id: "bench") { childCount } jobs { nodes { kind status } } }`);
    expect(after.body.data).toEqual({
      node: { childCount: 0 },
      jobs: { nodes: [{ kind: 'MOVE', status: 'DONE' }, { kind: 'DELETE', status: 'DONE' }] },
    });
    expect(browser.problems).toEqual([]);
  });
});

describe('the tree explorer against a server that runs only its registered operations', () => {
  const dir = mkdtempSync(join(tmpdir(), 'canopy-trusted-app-'));
  let example: Example;
  let browser: HeadlessBrowser;

  beforeAll(async () => {
    const manifest = join(dir, 'manifest.json');
    execFileSync('npm', ['run', '-s', 'example:manifest', '--', manifest], { cwd: fileURLToPath(new URL('../../', import.meta.url)), stdio: 'ignore' });
    // The tree is made through a server without the manifest, on the same table.
    const table = uniqueTable();
    const setup = await startTestServer({ table });
    for (const node of TREE.slice(0, 4)) await setup.gql('mutation ($input: CreateNodeInput!) { createNode(input: $input) { id } }', { input: node });
    await setup.close();
    [example, browser] = await Promise.all([startExample({ table, env: { TRUSTED_DOCUMENTS: manifest } }, []), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await example?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists, expands and selects with the operations it registered, and nothing is refused', async () => {
    const page = await browser.newPage();
    await page.goto(`${example.site.origin}/`);
    const roots = TREE.slice(0, 4).filter((node) => !node.parentId).map((node) => node.id);
    await waitForChildren(page, null, roots);
    const first = TREE.slice(0, 4).find((node) => node.parentId === roots[0])!;
    await page.getByRole('button', { name: `Expand ${TREE.find((node) => node.id === roots[0])!.name}` }).click();
    await waitForChildren(page, roots[0]!, TREE.slice(0, 4).filter((node) => node.parentId === roots[0]).map((node) => node.id));
    await row(page, first.id).getByRole('button', { name: first.name }).click();
    await waitForBreadcrumbs(page, [TREE.find((node) => node.id === roots[0])!.name, first.name]);
    expect(browser.problems).toEqual([]);
    const other = await example.server.gql('{ roots { nodes { id } } }');
    expect(other.body.errors?.map((e) => e.extensions?.code)).toEqual(['PERSISTED_QUERY_NOT_IN_LIST']);
  });
});
