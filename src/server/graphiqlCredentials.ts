import { escapeHtml } from './escapeHtml.js';

/**
 * GraphiQL against a server that asks for credentials (AUTH=jwt or apikey).
 *
 * The headers editor opens with a placeholder to replace. GraphiQL would send it as it is, with
 * its first request (the schema's introspection), and open on the 401 that answers it. Instead the
 * page's fetcher holds every request back until the headers carry a credential (an Authorization
 * or X-API-Key header that is not empty and holds no `<placeholder>`): the schema is fetched once
 * one is typed in, and an operation run before that answers a note, sent nowhere. A note above
 * GraphiQL says where the credential goes and how to get one.
 */
export type CredentialMode = 'jwt' | 'apikey';

/** What the headers editor of each example tab holds when the server asks for credentials. */
export const CREDENTIALS_HEADERS = '{\n  "Authorization": "Bearer <your token or API key>"\n}';

/** The command that gives a developer a credential of this kind, and what it gives. */
export function credentialCommand(mode: CredentialMode): { command: string; gives: string } {
  return mode === 'jwt'
    ? {
        command: 'npm run -s tree -- token',
        gives:
          'prints a development token (AUTH=jwt with JWT_SECRET; with JWT_JWKS_URL, ' +
          'your identity provider issues them)',
      }
    : { command: 'npm run tree -- keys create --name NAME', gives: 'makes an API key' };
}

/** The note, as text: where the credential goes and how to get one. */
export function credentialsNote(mode: CredentialMode): string {
  const { command, gives } = credentialCommand(mode);
  const what = mode === 'jwt' ? 'a token' : 'an API key';
  return (
    `This server asks for ${what}: put it in the Headers tab below, in place of the placeholder ` +
    `(nothing is sent until then). ${command} ${gives}.`
  );
}

/** The note above GraphiQL, hidden by the page's fetcher once the headers carry a credential. */
export function credentialsBanner(mode: CredentialMode): string {
  const { command } = credentialCommand(mode);
  const [before, after] = credentialsNote(mode).split(command);
  return (
    `<p id="credentials" class="credentials" role="note">${escapeHtml(before ?? '')}` +
    `<code>${escapeHtml(command)}</code>${escapeHtml(after ?? '')}</p>`
  );
}

export const CREDENTIALS_STYLE =
  '.credentials { margin: 0; padding: 8px 16px; font: 14px/1.4 system-ui, sans-serif; ' +
  'background: #fff7d6; border-bottom: 1px solid #e8d48a; } .credentials code { font-family: monospace; }';

/**
 * `canopyCredentialGuard(fetcher, banner, note, refetchSchema)`, for the page's script: a fetcher
 * that sends only requests whose headers carry a credential, without any placeholder, and
 * `onEditHeaders` for GraphiQL, which fetches the schema held back (a new fetcher makes GraphiQL
 * fetch it again) once the headers carry one.
 */
export const CREDENTIALS_GUARD = String.raw`
      function canopyCredentialGuard(fetcher, banner, note, refetchSchema) {
        var NAMES = ['authorization', 'x-api-key'];
        var heldBack = false;
        // The headers to send, placeholders left out; null without a credential.
        function usable(headers) {
          var kept = {};
          var found = false;
          Object.keys(headers || {}).forEach(function (name) {
            var value = headers[name];
            var credential = NAMES.indexOf(name.toLowerCase()) >= 0;
            var placeholder = typeof value !== 'string' || /^\s*(bearer\s*)?$/i.test(value) || value.indexOf('<') >= 0;
            if (credential && placeholder) return;
            kept[name] = value;
            if (credential) found = true;
          });
          return found ? kept : null;
        }
        function guarded(params, options) {
          var headers = usable(options && options.headers);
          banner.hidden = headers !== null;
          if (headers) return fetcher(params, Object.assign({}, options, { headers: headers }));
          // An empty answer to the schema's introspection leaves the result pane empty.
          if (params.operationName === 'IntrospectionQuery') {
            heldBack = true;
            return Promise.resolve('');
          }
          return Promise.resolve({ errors: [{ message: note }] });
        }
        return {
          fetcher: function () {
            return function (params, options) {
              return guarded(params, options);
            };
          },
          onEditHeaders: function (text) {
            if (!heldBack) return;
            var headers;
            try {
              headers = JSON.parse(text);
            } catch (error) {
              return;
            }
            if (usable(headers) === null) return;
            heldBack = false;
            refetchSchema();
          },
        };
      }
`;
