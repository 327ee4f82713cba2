import { describe, expect, it } from 'vitest';
import { landing, landingHtml, type LandingOptions } from './landing.js';

const OPTIONS: LandingOptions = {
  name: 'Canopy',
  version: '1.2.3',
  graphiql: true,
  auth: 'none',
  exampleQuery: '{ roots { nodes { id name } } }',
};

describe('the landing at GET /', () => {
  it('lists the doors of the server and a first request', () => {
    expect(landing('http://localhost:4000', OPTIONS)).toEqual({
      name: 'Canopy',
      version: '1.2.3',
      graphql: 'http://localhost:4000/graphql',
      graphiql: 'http://localhost:4000/graphql',
      health: 'http://localhost:4000/healthz',
      ready: 'http://localhost:4000/readyz',
      metrics: 'http://localhost:4000/metrics',
      curl:
        "curl -s http://localhost:4000/graphql -H 'content-type: application/json' " +
        `-d '{"query":"{ roots { nodes { id name } } }"}'`,
    });
  });

  it('says how to get a credential, and sends one in the example, when AUTH asks for one', () => {
    const jwt = landing('http://h', { ...OPTIONS, auth: 'jwt' });
    expect(jwt.credentials?.command).toBe('npm run -s tree -- token');
    expect(jwt.curl).toContain('-H "authorization: Bearer $TOKEN"');
    const apikey = landing('http://h', { ...OPTIONS, auth: 'apikey' });
    expect(apikey.credentials?.command).toBe('npm run tree -- keys create --name NAME');
    expect(apikey.curl).toContain('-H "authorization: Bearer $API_KEY"');
    expect(landingHtml(apikey)).toContain('<code>npm run tree -- keys create --name NAME</code>');
  });

  it('leaves the version out in production, and GraphiQL out when it is off', () => {
    const facts = landing('http://h', { ...OPTIONS, version: null, graphiql: false });
    expect(facts).not.toHaveProperty('version');
    expect(facts.graphiql).toBeNull();
    const html = landingHtml(facts);
    expect(html).toContain('<title>Canopy</title>');
    expect(html).toContain('GRAPHIQL=true');
    expect(html).not.toContain('href="http://h/graphql"');
  });

  it('escapes what the request chose (its Host header) in the page', () => {
    const html = landingHtml(landing('http://"><script>x()</script>', OPTIONS));
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
  });
});
