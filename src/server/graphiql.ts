import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express, { type Request, type Response, type NextFunction } from 'express';
import { renameRootFields, schemaNames, type SchemaNames } from '../graphql/schemaPrefix.js';
import {
  CREDENTIALS_GUARD,
  CREDENTIALS_HEADERS,
  CREDENTIALS_STYLE,
  credentialsBanner,
  credentialsNote,
  type CredentialMode,
} from './graphiqlCredentials.js';

/**
 * GraphiQL served by the server itself, so that it works on a machine with no internet: the
 * page loads React, ReactDOM and GraphiQL from this package's own node_modules, never from a CDN.
 *
 * `GET /graphql` answers with the page only when the client prefers HTML (a browser); every
 * other request falls through to the GraphQL handler mounted after this router. The result pane
 * shows the whole response, `extensions.dynamodb` (the cost of the operation) included.
 *
 * Asset URLs carry the package version, so they can be cached for a year: an upgrade changes the
 * URL.
 */
export const GRAPHIQL_ASSET_PREFIX = '/graphiql/assets';

interface Asset {
  /** Path below GRAPHIQL_ASSET_PREFIX, e.g. `/graphiql@3.9.0/graphiql.min.js`. */
  urlPath: string;
  file: string;
}

type Assets = Record<'react' | 'reactDom' | 'graphiqlJs' | 'graphiqlCss' | 'graphqlWs', Asset>;

function packageAsset(packageName: string, fileInPackage: string): Asset {
  const require = createRequire(import.meta.url);
  // Only package.json is resolvable through every package's `exports`; the UMD files are not.
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: string };
  const fileName = fileInPackage.split('/').pop() ?? fileInPackage;
  return {
    urlPath: `/${packageName}@${manifest.version}/${fileName}`,
    file: join(dirname(manifestPath), fileInPackage),
  };
}

function resolveAssets(): Assets {
  return {
    react: packageAsset('react', 'umd/react.production.min.js'),
    reactDom: packageAsset('react-dom', 'umd/react-dom.production.min.js'),
    graphiqlJs: packageAsset('graphiql', 'graphiql.min.js'),
    graphiqlCss: packageAsset('graphiql', 'graphiql.min.css'),
    graphqlWs: packageAsset('graphql-ws', 'umd/graphql-ws.min.js'),
  };
}

/** The tabs GraphiQL opens with on a first visit (later visits restore the user's own tabs). */
export const EXAMPLE_TABS: ReadonlyArray<{ query: string; variables?: string }> = [
  {
    query: `# Canopy: trees stored in DynamoDB.
# Run an operation with Ctrl-Enter. The response's
# "extensions.dynamodb" reports what it cost: DynamoDB requests, read
# and write capacity units. The other tabs hold more examples; their
# variables name nodes of the demo tree.

query Roots {
  roots(first: 10) {
    nodes {
      id
      name
      childCount
      children(first: 10) {
        nodes { id name childCount }
        pageInfo { hasNextPage endCursor }
      }
    }
    pageInfo { hasNextPage endCursor }
  }
}
`,
  },
  {
    query: `# Breadcrumbs: the ancestors of a node, root first.
query Breadcrumbs($id: ID!) {
  node(id: $id) {
    id
    name
    depth
    ancestors { id name }
  }
}
`,
    variables: '{\n  "id": "laptops"\n}',
  },
  {
    query: `# A subtree two levels deep, ordered by depth.
query Subtree($id: ID!) {
  node(id: $id) {
    name
    descendants(maxDepth: 2, first: 100) {
      nodes { id name depth parentId }
      pageInfo { hasNextPage endCursor }
    }
  }
}
`,
    variables: '{\n  "id": "catalog"\n}',
  },
  {
    query: `# Move a node and its whole subtree under another parent
# (null: make it a root).
mutation Move($id: ID!, $newParentId: ID) {
  reparent(id: $id, newParentId: $newParentId) {
    id
    parentId
    depth
    version
    ancestors { id name }
  }
}
`,
    variables: '{\n  "id": "tablets",\n  "newParentId": "phones"\n}',
  },
  {
    query: `# Reorder among the same siblings: keep the parent, place the node
# before a sibling.
mutation Reorder($id: ID!, $parentId: ID, $before: ID) {
  reparent(id: $id, newParentId: $parentId, before: $before) {
    id
    position
    version
  }
}
`,
    variables: '{\n  "id": "speakers",\n  "parentId": "audio",\n  "before": "headphones"\n}',
  },
  {
    query: `# Live changes of a subtree, over WebSocket: run it, then change the
# tree (the Move and Reorder tabs, or the example app). Each change
# carries its cursor: pass the last one as "after" to resume, with
# every change missed since.
subscription Live($id: ID!) {
  treeChanges(nodeId: $id, maxDepth: 3) {
    cursor
    kind
    nodeId
    oldParentId
    newParentId
    count
    node { id name parentId position version }
  }
}
`,
    variables: '{\n  "id": "catalog"\n}',
  },
  {
    query: `# Copy a node and its whole subtree (new ids: idPrefix before the old
# ones, or generated), here before a sibling. Its undo (the Undo tab)
# deletes the copy.
mutation Copy($id: ID!, $newParentId: ID, $before: ID) {
  copySubtree(input: { id: $id, newParentId: $newParentId, before: $before, idPrefix: "copy-" }) {
    copiedCount
    node { id name parentId children { nodes { id name } } }
    job { id status }
  }
}
`,
    variables: '{\n  "id": "audio",\n  "newParentId": "electronics",\n  "before": "computers"\n}',
  },
  {
    query: `# Who changed what: a node's own changes, and every change in its
# tree, newest first. Pass a change's id to the Undo tab.
query History($id: ID!, $rootId: ID!) {
  node(id: $id) {
    history(first: 10) {
      nodes { id kind at by oldParentId newParentId oldName node { name } }
    }
  }
  treeHistory(rootId: $rootId, first: 10) {
    nodes { id kind nodeId at by count }
    pageInfo { hasNextPage endCursor }
  }
}
`,
    variables: '{\n  "id": "tablets",\n  "rootId": "catalog"\n}',
  },
  {
    query: `# Undo a change (an id from the History tab): an update, a move, a
# reorder, a create, a copy or a delete. Refused with CONFLICT when the
# node changed since; the answer is the undo, a change of its own: undo
# it to redo.
mutation Undo($changeId: ID!) {
  undo(changeId: $changeId) {
    id
    kind
    nodeId
    node { id name parentId }
  }
}
`,
    variables: '{\n  "changeId": "paste a change id here"\n}',
  },
  {
    query: `# Deleted subtrees stay restorable for UNDO_RETENTION_DAYS: the
# newest first. Pass one's id to the Restore tab.
query Deleted {
  deletedNodes(first: 10) {
    nodes { id name parentId }
  }
}
`,
  },
  {
    query: `# Restore a deleted subtree (an id from the Deleted tab) whole, where it
# was, or under newParentId.
mutation Restore($id: ID!) {
  restoreNode(id: $id) { id name parentId children { nodes { id } } }
}
`,
    variables: '{\n  "id": "tablets"\n}',
  },
  {
    query: `# Share a node and its whole subtree: READ, WRITE or ADMIN to a
# principal, sub:<token subject>, group:<group> or key:<API key name>
# (else BAD_USER_INPUT). Needs ADMIN on the node (else FORBIDDEN); run
# it again with another level to change it. The node's grants, and
# what you may do there:
#   node(id: $id) {
#     grants { principal level grantedBy at }
#     access
#   }
# revokeAccess(nodeId, principal) takes a grant back; the grantee
# finds the tops of what is shared with it in sharedWithMe.
mutation Share($id: ID!, $principal: String!) {
  grantAccess(nodeId: $id, principal: $principal, level: READ) {
    nodeId
    principal
    level
    grantedBy
    at
  }
}
`,
    variables: '{\n  "id": "laptops",\n  "principal": "sub:ana"\n}',
  },
];

/**
 * The page's fetcher: subscriptions over GraphQL over WebSocket (graphql-ws's browser build,
 * served with GraphiQL), with the tab's headers as the connection's credentials; the rest as
 * GraphiQL's own fetcher sends it.
 */
const LIVE_FETCHER = String.raw`
      function canopyLiveFetcher(http, wsUrl) {
        var clients = {};
        function isSubscription(params) {
          var query = String(params.query || '').replace(/#.*/g, '');
          if (params.operationName) return new RegExp('subscription\\s+' + params.operationName + '\\b').test(query);
          return /^\s*subscription\b/.test(query);
        }
        // GraphiQL may send the name of the tab's operation before the one now in the editor.
        function named(params) {
          var query = String(params.query || '');
          var name = params.operationName;
          if (!name || new RegExp('\\b(query|mutation|subscription)\\s+' + name + '\\b').test(query)) return params;
          return Object.assign({}, params, { operationName: undefined });
        }
        return function (given, options) {
          var params = named(given);
          if (!isSubscription(params)) return http(params, options);
          var headers = (options && options.headers) || {};
          var key = JSON.stringify(headers);
          if (!clients[key])
            clients[key] = graphqlWs.createClient({ url: wsUrl, connectionParams: headers, lazy: true });
          var operation = { query: params.query, variables: params.variables, operationName: params.operationName };
          return clients[key].iterate(operation);
        };
      }
`;

/**
 * An example's variables under RELAY_NODE: each names a node of the demo tree, given by its
 * global id (`nodeId`), as the API then takes it; but a change's id and a grant's principal.
 */
function globalVariables(variables: string, nodeId: (id: string) => string): string {
  const values = JSON.parse(variables) as Record<string, unknown>;
  const global = Object.entries(values).map(([name, value]) => [
    name,
    typeof value === 'string' && name !== 'changeId' && name !== 'principal' ? nodeId(value) : value,
  ]);
  return JSON.stringify(Object.fromEntries(global), null, 2);
}

/** JSON that is safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The headers a new tab opens with, when the server asks for credentials: the placeholder. */
const DEFAULT_HEADERS = `\n          defaultHeaders: ${scriptJson(CREDENTIALS_HEADERS)},`;

/** Who may call the API (AUTH): `none`, or the kind of credential GraphiQL must send. */
export type GraphiqlAuth = 'none' | CredentialMode;

/**
 * The page. With credentials (AUTH is not `none`), every example tab opens with an Authorization
 * header to fill in (the Headers tab under the query), kept in the browser's storage from one
 * visit to the next, and nothing is sent until it holds one (graphiqlCredentials.ts).
 */
export function graphiqlPage(
  assets: Assets,
  basePath: string,
  auth: GraphiqlAuth = 'none',
  names: SchemaNames = schemaNames(),
  nodeId?: (id: string) => string,
): string {
  const url = (asset: Asset) => `${basePath}${GRAPHIQL_ASSET_PREFIX}${asset.urlPath}`;
  const named = EXAMPLE_TABS.map((tab) => ({
    ...tab,
    query: renameRootFields(tab.query, names),
    ...(tab.variables && nodeId ? { variables: globalVariables(tab.variables, nodeId) } : {}),
  }));
  const credentials = auth !== 'none';
  const tabs = credentials ? named.map((tab) => ({ ...tab, headers: CREDENTIALS_HEADERS })) : named;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Canopy GraphiQL</title>
    <style>
      html, body { height: 100%; margin: 0; }
      body { display: flex; flex-direction: column; }
      #graphiql { flex: 1; min-height: 0; }
      ${credentials ? CREDENTIALS_STYLE : ''}
    </style>
    <link rel="stylesheet" href="${url(assets.graphiqlCss)}" />
  </head>
  <body>
    ${credentials ? credentialsBanner(auth) : ''}
    <div id="graphiql">Loading GraphiQL...</div>
    <script src="${url(assets.react)}"></script>
    <script src="${url(assets.reactDom)}"></script>
    <script src="${url(assets.graphiqlJs)}"></script>
    <script src="${url(assets.graphqlWs)}"></script>
    <script>${LIVE_FETCHER}${credentials ? CREDENTIALS_GUARD : ''}
      (function () {
        var props = {
          defaultTabs: ${scriptJson(tabs)},
          defaultEditorToolsVisibility: ${credentials ? "'headers'" : 'true'},
          shouldPersistHeaders: ${credentials},${credentials ? DEFAULT_HEADERS : ''}
        };
        // The page is served at the GraphQL endpoint itself, so the endpoint is this path.
        var wsUrl = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + location.pathname;
        var fetcher = canopyLiveFetcher(GraphiQL.createFetcher({ url: window.location.pathname }), wsUrl);
        var root = ReactDOM.createRoot(document.getElementById('graphiql'));
        function render(current) {
          root.render(React.createElement(GraphiQL, Object.assign({ fetcher: current }, props)));
        }
        ${credentials ? credentialsStart(auth) : 'render(fetcher);'}
      })();
    </script>
  </body>
</html>
`;
}

/** The page script's start when the server asks for credentials: GraphiQL behind the guard. */
function credentialsStart(auth: CredentialMode): string {
  return `var banner = document.getElementById('credentials');
        var note = ${scriptJson(credentialsNote(auth))};
        var guard = canopyCredentialGuard(fetcher, banner, note, function () {
          render(guard.fetcher());
        });
        props.onEditHeaders = guard.onEditHeaders;
        render(guard.fetcher());`;
}

/** Browsers send `text/html` first; API clients send JSON types or nothing (`*\/*`). */
export function prefersHtml(req: Request): boolean {
  return req.accepts(['application/graphql-response+json', 'application/json', 'text/html']) === 'text/html';
}

/**
 * GraphiQL's page and assets; `auth`: the credentials the server asks for (AUTH);
 * `nodeId`: the global id of a node (RELAY_NODE), for the examples' variables.
 */
export function graphiqlRouter(
  auth: GraphiqlAuth = 'none',
  names: SchemaNames = schemaNames(),
  nodeId?: (id: string) => string,
): express.Router {
  const assets = resolveAssets();
  const router = express.Router();

  for (const asset of Object.values(assets)) {
    router.get(`${GRAPHIQL_ASSET_PREFIX}${asset.urlPath}`, (_req: Request, res: Response, next: NextFunction) => {
      res.sendFile(asset.file, { maxAge: '365d', immutable: true }, (error) => {
        if (error) next(error);
      });
    });
  }

  // Browsers ask for a favicon on every page; there is none, and a 404 would read as an error.
  router.get('/favicon.ico', (_req: Request, res: Response) => {
    res.status(204).set('cache-control', 'public, max-age=86400').end();
  });

  router.get('/graphql', (req: Request, res: Response, next: NextFunction) => {
    if (!prefersHtml(req)) {
      next();
      return;
    }
    res
      .status(200)
      .type('html')
      .set('cache-control', 'no-cache')
      .send(graphiqlPage(assets, req.baseUrl, auth, names, nodeId));
  });

  return router;
}

/**
 * GET /graphql from a browser when GraphiQL is off (GRAPHIQL=false, production's default): 404
 * with a line saying so and how to turn it on, rather than a refusal about headers the browser
 * never sent. API clients go on to the GraphQL handler.
 */
export function graphiqlOff(req: Request, res: Response, next: NextFunction): void {
  if (req.method !== 'GET' || !prefersHtml(req)) {
    next();
    return;
  }
  res
    .status(404)
    .type('text/plain')
    .send(
      'GraphiQL is off (GRAPHIQL=false, the default with NODE_ENV=production): set GRAPHIQL=true, ' +
        'and INTROSPECTION=true for its docs, to serve it here. GraphQL answers POSTs at this address.\n',
    );
}
