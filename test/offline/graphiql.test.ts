import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kind, parse, validate } from 'graphql';
import { buildTreeSchema } from '../../src/graphql/buildSchema.js';
import { EXAMPLE_TABS, graphiqlRouter } from '../../src/server/graphiql.js';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let server: Server;
let base: string;
/** Requests that the router passed on to the next handler (Apollo, in the real server). */
let fellThrough: Array<{ method: string; accept: string | undefined }> = [];

beforeAll(async () => {
  const app = express();
  app.use(graphiqlRouter());
  app.use('/graphql', (req, res) => {
    fellThrough.push({ method: req.method, accept: req.headers.accept });
    res.status(299).json({ reached: 'next' });
  });
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
});

async function page(): Promise<{ response: Response; html: string }> {
  const response = await fetch(`${base}/graphql`, { headers: { accept: BROWSER_ACCEPT } });
  return { response, html: await response.text() };
}

function referencedAssets(html: string): string[] {
  return [...html.matchAll(/\s(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '');
}

describe('GraphiQL page', () => {
  it('answers a browser GET /graphql with HTML', async () => {
    const { response, html } = await page();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html).toContain('GraphiQL.createFetcher');
    expect(fellThrough).toEqual([]);
  });

  it('references only assets served by this server', async () => {
    const { html } = await page();
    const foreign = [...html.matchAll(/https?:\/\/[^\s"'<>]+/g)].map((match) => match[0]);
    expect(foreign).toEqual([]);
    const assets = referencedAssets(html);
    // React, ReactDOM, GraphiQL's script and style, graphql-ws's browser build (subscriptions).
    expect(assets.length).toBe(5);
    for (const asset of assets) expect(asset).toMatch(/^\/graphiql\/assets\//);
  });

  it('serves every referenced asset with its content type and a long cache lifetime', async () => {
    const { html } = await page();
    for (const asset of referencedAssets(html)) {
      const response = await fetch(`${base}${asset}`);
      expect(response.status, asset).toBe(200);
      const expectedType = asset.endsWith('.css') ? /^text\/css/ : /^(text|application)\/javascript/;
      expect(response.headers.get('content-type'), asset).toMatch(expectedType);
      expect(response.headers.get('cache-control'), asset).toMatch(/max-age=31536000/);
      expect((await response.arrayBuffer()).byteLength, asset).toBeGreaterThan(1000);
    }
  });

  it('prefills example operations in tabs', async () => {
    const { html } = await page();
    expect(html).toContain('defaultTabs');
    for (const fragment of [
      'roots(first: 10)',
      'children(first: 10)',
      'pageInfo { hasNextPage endCursor }',
      'ancestors',
      'descendants(maxDepth: 2',
      'reparent(',
      'before: $before',
    ]) {
      expect(html).toContain(fragment);
    }
  });

  it('holds example operations the schema accepts, copy, history, undo and restore among them', () => {
    const schema = buildTreeSchema();
    for (const tab of EXAMPLE_TABS) expect(validate(schema, parse(tab.query)), tab.query).toEqual([]);
    const operations = EXAMPLE_TABS.flatMap((tab) =>
      [...tab.query.matchAll(/^(?:query|mutation|subscription) (\w+)/gm)].map((m) => m[1]),
    );
    expect(operations).toEqual(expect.arrayContaining(['Copy', 'History', 'Undo', 'Deleted', 'Restore', 'Share']));
  });

  it('opens tabs that fit a narrow editor: comment lines of at most 72 characters, one operation each', () => {
    for (const tab of EXAMPLE_TABS) {
      const comments = tab.query.split('\n').filter((line) => line.trimStart().startsWith('#'));
      expect(comments.length, tab.query).toBeGreaterThan(0);
      for (const line of comments) expect(line.length, line).toBeLessThanOrEqual(72);
      // One operation: Run runs it, with no list of operations to choose from.
      const operations = parse(tab.query).definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
      expect(operations, tab.query).toHaveLength(1);
    }
  });

  it('answers 404 for an unknown asset', async () => {
    const response = await fetch(`${base}/graphiql/assets/graphiql@0.0.0/graphiql.min.js`);
    expect(response.status).toBe(404);
  });
});

describe('requests for the API fall through to the next handler', () => {
  it.each([
    ['application/json', 'application/json'],
    ['application/graphql-response+json', 'application/graphql-response+json, application/json;q=0.9'],
    ['no Accept header', undefined],
    ['*/*', '*/*'],
  ])('GET /graphql with %s', async (_label, accept) => {
    fellThrough = [];
    const headers: Record<string, string> = accept === undefined ? {} : { accept };
    const response = await fetch(`${base}/graphql?query=%7B__typename%7D`, { headers });
    expect(response.status).toBe(299);
    expect(await response.json()).toEqual({ reached: 'next' });
    expect(fellThrough).toHaveLength(1);
  });

  it('POST /graphql from a browser', async () => {
    fellThrough = [];
    const response = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { accept: BROWSER_ACCEPT, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(response.status).toBe(299);
    expect(fellThrough).toEqual([{ method: 'POST', accept: BROWSER_ACCEPT }]);
  });
});

describe('GraphiQL page when the server asks for credentials', () => {
  /** The page a browser gets from a router for this AUTH mode. */
  async function pageFor(auth: 'jwt' | 'apikey'): Promise<string> {
    const app = express();
    app.use(graphiqlRouter(auth));
    const listening = await new Promise<Server>((resolve) => {
      const started = app.listen(0, '127.0.0.1', () => resolve(started));
    });
    try {
      const port = (listening.address() as AddressInfo).port;
      const response = await fetch(`http://127.0.0.1:${port}/graphql`, { headers: { accept: BROWSER_ACCEPT } });
      return await response.text();
    } finally {
      await new Promise<void>((resolve) => listening.close(() => resolve()));
    }
  }

  it('says where the credential goes and how to get one', async () => {
    const jwt = await pageFor('jwt');
    expect(jwt).toContain('<p id="credentials" class="credentials" role="note">This server asks for a token');
    expect(jwt).toContain('<code>npm run -s tree -- token</code>');
    const apikey = await pageFor('apikey');
    expect(apikey).toContain('This server asks for an API key');
    expect(apikey).toContain('<code>npm run tree -- keys create --name NAME</code>');
  });

  it('opens the headers editor on a placeholder, and sends through a guard that holds it back', async () => {
    const html = await pageFor('jwt');
    expect(html).toContain('Bearer \\u003cyour token or API key>');
    expect(html).toContain("defaultEditorToolsVisibility: 'headers'");
    expect(html).toContain('canopyCredentialGuard(fetcher, banner, note,');
    expect(html).toContain('onEditHeaders');
  });

  it('shows no note without AUTH', async () => {
    const { html } = await page();
    expect(html).not.toContain('id="credentials"');
    expect(html).not.toContain('canopyCredentialGuard');
  });
});
