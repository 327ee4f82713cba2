import { SignJWT } from 'jose';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  nonLocalRequests,
  recordRequests,
  saveScreenshot,
  type HeadlessBrowser,
} from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * GraphiQL as a user sees it, in headless Chromium: served offline by the server itself, the
 * example query prefilled, run with the execute button, the cost report in the result, and the
 * docs explorer built from introspection.
 */

const TREE: Array<{ id: string; name: string; parentId?: string }> = [
  { id: 'orchard', name: 'Orchard' },
  { id: 'apples', name: 'Apples', parentId: 'orchard' },
  { id: 'pears', name: 'Pears', parentId: 'orchard' },
  { id: 'meadow', name: 'Meadow' },
  { id: 'clover', name: 'Clover', parentId: 'meadow' },
];

/** The whole text of the CodeMirror editor inside `container` (not only the rendered lines). */
function editorText(page: Page, container: string): Promise<string> {
  return page.evaluate((selector) => {
    const element = (globalThis as any).document.querySelector(`${selector} .CodeMirror`);
    return element?.CodeMirror ? String(element.CodeMirror.getValue()) : '';
  }, container);
}

/** Waits until the editor inside `container` contains every one of `needles`. */
async function waitForEditorText(page: Page, container: string, needles: string[]): Promise<string> {
  await page.waitForFunction(
    ([selector, wanted]) => {
      const element = (globalThis as any).document.querySelector(`${selector} .CodeMirror`);
      const text: string = element?.CodeMirror ? String(element.CodeMirror.getValue()) : '';
      return wanted.every((needle) => text.includes(needle));
    },
    [container, needles] as const,
  );
  return editorText(page, container);
}

describe('GraphiQL in a browser', () => {
  let server: TestServer;
  let browser: HeadlessBrowser;
  let page: Page;
  let requests: string[];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
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
    await server?.close();
  });

  it('loads from the server alone and prefills the example query', async () => {
    const response = await page.goto(`${server.url}/graphql`);
    expect(response?.status()).toBe(200);
    const query = await waitForEditorText(page, '.graphiql-query-editor', ['query Roots', 'children(first: 10)']);
    expect(query).toContain('roots(first: 10)');
    expect(query).toContain('pageInfo { hasNextPage endCursor }');
    expect(nonLocalRequests(requests)).toEqual([]);
    // React, ReactDOM, GraphiQL's script and stylesheet, all from the server's own asset route.
    const assets = requests.filter((url) => url.startsWith(`${server.url}/graphiql/assets/`));
    for (const name of [
      /\/react@[^/]+\/react\./,
      /\/react-dom@[^/]+\//,
      /\/graphiql\.min\.js$/,
      /\/graphiql\.min\.css$/,
    ]) {
      expect(
        assets.some((url) => name.test(url)),
        `an asset matching ${name}`,
      ).toBe(true);
    }
  });

  it('runs the query with the execute button and shows the nodes and the DynamoDB cost', async () => {
    await page.locator('.graphiql-execute-button').click();
    const result = await waitForEditorText(page, '.graphiql-response', [
      ...TREE.map((node) => `"${node.id}"`),
      '"dynamodb"',
    ]);
    const body = JSON.parse(result) as {
      data: { roots: { nodes: Array<{ id: string; children: { nodes: Array<{ id: string }> } }> } };
      extensions: { dynamodb: { requests: number } };
    };
    expect(body.data.roots.nodes.map((root) => [root.id, root.children.nodes.map((child) => child.id)])).toEqual([
      ['orchard', ['apples', 'pears']],
      ['meadow', ['clover']],
    ]);
    expect(body.extensions.dynamodb.requests).toBeGreaterThan(0);
  });

  it('runs a subscription over WebSocket and shows each change as it comes', async () => {
    // The Live tab: the example subscription, on the demo tree's root (here: the orchard).
    await page.locator('.graphiql-tab', { hasText: 'Live' }).click();
    await waitForEditorText(page, '.graphiql-query-editor', ['subscription Live']);
    await page.evaluate(() => {
      const element = (globalThis as any).document.querySelector('.graphiql-editor-tool .CodeMirror');
      element?.CodeMirror?.setValue('{ "id": "orchard" }');
    });
    await page.locator('.graphiql-execute-button').click();
    // The subscription runs once the server has it: rename until its change shows.
    const deadline = Date.now() + 15_000;
    let result = '';
    for (let i = 0; !result.includes('"Red apples'); i++) {
      if (Date.now() > deadline) throw new Error(`no change shown; the result pane reads: ${result}`);
      const renamed = await server.gql('mutation($name: String!) { updateNode(id: "apples", name: $name) { id } }', {
        name: `Red apples ${i}`,
      });
      expect(renamed.body.errors).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 300));
      result = await editorText(page, '.graphiql-response');
    }
    expect(JSON.parse(result)).toMatchObject({
      data: {
        treeChanges: { kind: 'UPDATED', nodeId: 'apples', node: { name: expect.stringMatching(/^Red apples/) } },
      },
    });
    expect(requests.some((url) => /\/graphql-ws\.min\.js$/.test(url))).toBe(true);
    // Stop it, so that the page's next operations run alone.
    await page.locator('.graphiql-execute-button').click();
  });

  it('opens the docs explorer on the schema, Query first', async () => {
    await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
    const explorer = page.locator('.graphiql-doc-explorer');
    await explorer.getByText('Root Types').waitFor();
    await explorer.getByRole('link', { name: 'Query', exact: true }).click();
    // The Query type's page lists its fields.
    await explorer.locator('.graphiql-doc-explorer-field-name', { hasText: 'roots' }).waitFor();
    await explorer.locator('.graphiql-doc-explorer-title', { hasText: 'Query' }).waitFor();

    // The screenshot shows the end of the result: the cost report.
    await page.evaluate(() => {
      const element = (globalThis as any).document.querySelector('.graphiql-response .CodeMirror');
      element.CodeMirror.scrollIntoView({ line: element.CodeMirror.lineCount() - 1, ch: 0 });
    });
    await saveScreenshot(page, 'graphiql.png');
    expect(nonLocalRequests(requests)).toEqual([]);
    expect(browser.problems).toEqual([]);
  });
});

describe('GraphiQL in a browser, with AUTH=jwt', () => {
  const secret = 'a-graphiql-secret-of-32-bytes-or-more';
  let server: TestServer;
  let browser: HeadlessBrowser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startTestServer({ env: { AUTH: 'jwt', JWT_SECRET: secret } }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('sends nothing until a token replaces the placeholder, says how to get one, then loads the schema', async () => {
    const token = await new SignJWT({ sub: 'explorer', exp: Math.floor(Date.now() / 1000) + 300 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(secret));
    const created = await server.gql(
      'mutation { createNode(input: { id: "vault", name: "Vault" }) { id } }',
      {},
      { authorization: `Bearer ${token}` },
    );
    expect(created.body.data).toEqual({ createNode: { id: 'vault' } });
    const page = await browser.newPage();
    // The Authorization header of every request GraphiQL sends to the API.
    const sent: Array<string | null> = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().startsWith(`${server.url}/graphql`)) {
        sent.push(request.headers().authorization ?? null);
      }
    });
    await page.goto(`${server.url}/graphql`);
    await waitForEditorText(page, '.graphiql-query-editor', ['query Roots']);
    const note = page.locator('#credentials');
    expect(await note.textContent()).toContain('npm run -s tree -- token');
    expect(await note.isVisible()).toBe(true);
    // The headers editor is the one that holds the placeholder; the token goes in its place.
    await page.waitForFunction(() =>
      [...(globalThis as any).document.querySelectorAll('.graphiql-editor-tool .CodeMirror')].some((e: any) =>
        e.CodeMirror.getValue().includes('<your token or API key>'),
      ),
    );
    // Run before the token: the page answers with the note itself; nothing reached the server.
    await page.locator('.graphiql-execute-button').click();
    await waitForEditorText(page, '.graphiql-response', ['npm run -s tree -- token']);
    expect(sent).toEqual([]);
    await saveScreenshot(page, 'graphiql-auth.png');

    await page.evaluate(
      (value) => {
        const editors = [...(globalThis as any).document.querySelectorAll('.graphiql-editor-tool .CodeMirror')];
        editors.find((e: any) => e.CodeMirror.getValue().includes('Authorization')).CodeMirror.setValue(value);
      },
      JSON.stringify({ Authorization: `Bearer ${token}` }),
    );
    // With the token typed in, the schema is fetched: the docs explorer lists the root types.
    await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
    await page.locator('.graphiql-doc-explorer').getByText('Root Types').waitFor();
    await note.waitFor({ state: 'hidden' });
    await page.locator('.graphiql-execute-button').click();
    const result = await waitForEditorText(page, '.graphiql-response', ['"vault"']);
    expect(JSON.parse(result).data.roots.nodes.map((node: { id: string }) => node.id)).toEqual(['vault']);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(new Set(sent)).toEqual(new Set([`Bearer ${token}`]));
    // Not one 401, nor any other error, from the first load on.
    expect(browser.problems).toEqual([]);
  });
});
