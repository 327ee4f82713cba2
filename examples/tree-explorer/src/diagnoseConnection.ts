/** Why a request to the API failed without any HTTP answer reaching the page. */
export type Connection = 'unreachable' | 'origin-refused' | 'reachable';

const PROBE_TIMEOUT_MS = 5000;

/**
 * A failed fetch (a TypeError, no HTTP answer) says nothing about its cause: the server may be
 * down, or it answered without allowing this page's origin (CORS), and the browser hides which.
 * Two requests tell them apart:
 *
 * 1. `no-cors` GET of the server's `/healthz`: the browser hands back an opaque answer, whatever
 *    the server's CORS settings, so it fails only when nothing answers at that address;
 * 2. a real GraphQL request (`{ __typename }`, with the app's headers): it fails, with the server
 *    reachable, when the server does not allow this origin. If it goes through, the failure was
 *    a passing one (a dropped connection) and a retry may work.
 */
export async function diagnoseConnection(endpoint: string, headers: Record<string, string>): Promise<Connection> {
  try {
    await fetch(new URL('/healthz', endpoint), {
      mode: 'no-cors',
      cache: 'no-store',
      credentials: 'omit',
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
  } catch {
    return 'unreachable';
  }
  try {
    await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query: '{ __typename }' }),
      cache: 'no-store',
      credentials: 'omit',
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
  } catch {
    return 'origin-refused';
  }
  return 'reachable';
}
