import type { Request, Response } from 'express';
import { escapeHtml } from './escapeHtml.js';
import { credentialCommand, type CredentialMode } from './graphiqlCredentials.js';

/**
 * `GET /`: what this server is and where its doors are, instead of a 404. Browsers get a small
 * page (no script, nothing loaded from elsewhere); every other client gets the same as JSON.
 * The version is left out in production, where it would only tell a scanner which release it
 * faces.
 */
export interface LandingOptions {
  name: string;
  /** Null: not shown (production). */
  version: string | null;
  /** GRAPHIQL: GraphiQL's page at GET /graphql for browsers. */
  graphiql: boolean;
  auth: 'none' | CredentialMode;
  /** A query to try, in the schema's names (SCHEMA_PREFIX). */
  exampleQuery: string;
}

export interface Landing {
  name: string;
  version?: string;
  graphql: string;
  /** Null when GRAPHIQL is off. */
  graphiql: string | null;
  health: string;
  ready: string;
  metrics: string;
  /** A first request, for a shell. */
  curl: string;
  /** How to get the credential every /graphql request needs (AUTH), when it needs one. */
  credentials?: { command: string; gives: string };
}

/** The landing's facts for a server reached at `origin` (e.g. `http://localhost:4000`). */
export function landing(origin: string, options: LandingOptions): Landing {
  const graphql = `${origin}/graphql`;
  const body = JSON.stringify({ query: options.exampleQuery });
  const credential = options.auth === 'none' ? null : credentialCommand(options.auth);
  const bearer = options.auth === 'jwt' ? '$TOKEN' : '$API_KEY';
  return {
    name: options.name,
    ...(options.version === null ? {} : { version: options.version }),
    graphql,
    graphiql: options.graphiql ? graphql : null,
    health: `${origin}/healthz`,
    ready: `${origin}/readyz`,
    metrics: `${origin}/metrics`,
    curl:
      `curl -s ${graphql} -H 'content-type: application/json'` +
      `${credential ? ` -H "authorization: Bearer ${bearer}"` : ''} -d '${body}'`,
    ...(credential ? { credentials: credential } : {}),
  };
}

/** The landing as a page for a browser. */
export function landingHtml(facts: Landing): string {
  const title = escapeHtml(facts.version ? `${facts.name} ${facts.version}` : facts.name);
  const link = (url: string, text: string, what: string) =>
    `<li><a href="${escapeHtml(url)}">${escapeHtml(text)}</a>: ${what}</li>`;
  const graphql = facts.graphiql
    ? link(facts.graphiql, 'GraphiQL', 'run queries in the browser, at the GraphQL endpoint <code>/graphql</code>')
    : '<li>GraphQL at <code>/graphql</code> (GraphiQL is off: <code>GRAPHIQL=true</code> turns it on)</li>';
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>
    <style>
      body { font: 16px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; }
      pre { background: #f4f4f4; padding: 0.75rem; overflow-x: auto; white-space: pre-wrap; }
    </style>
  </head>
  <body>
    <h1>${title}</h1>
    <p>A GraphQL server for trees stored in DynamoDB.</p>
    <ul>
      ${graphql}
      ${link(facts.health, '/healthz', '200 while the process lives')}
      ${link(facts.ready, '/readyz', '200 once DynamoDB answers')}
      ${link(facts.metrics, '/metrics', 'Prometheus metrics')}
    </ul>
    <p>From a shell:</p>
    <pre><code>${escapeHtml(facts.curl)}</code></pre>${
      facts.credentials
        ? `\n    <p>Every request to /graphql needs a credential: ` +
          `<code>${escapeHtml(facts.credentials.command)}</code> ${escapeHtml(facts.credentials.gives)}.</p>`
        : ''
    }
  </body>
</html>
`;
}

/** The handler of `GET /`. */
export function landingRoute(options: LandingOptions) {
  return (req: Request, res: Response): void => {
    const facts = landing(`${req.protocol}://${req.get('host') ?? 'localhost'}`, options);
    res.vary('Accept').set('cache-control', 'no-cache');
    if (req.accepts(['application/json', 'text/html']) === 'text/html') res.type('html').send(landingHtml(facts));
    else res.json(facts);
  };
}
