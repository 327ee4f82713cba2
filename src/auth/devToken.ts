import { SignJWT } from 'jose';
import type { AuthConfig } from '../config.js';

/** How long a development token lasts unless asked otherwise. */
export const DEV_TOKEN_HOURS = 8;

/**
 * A token this server's AUTH=jwt configuration accepts, signed with its JWT_SECRET, for a
 * developer's tools (the example app, curl, GraphiQL): `sub`, `exp` in `hours`, the `iss` and
 * `aud` the server checks, the tenant claim when a tenant is given, and the permissions and
 * groups claims when `limits` names trees or groups. Throws when the
 * configuration cannot sign one (not AUTH=jwt, or a JWKS, whose private keys belong to the
 * identity provider).
 */
export async function signDevToken(
  auth: AuthConfig,
  subject: string,
  hours = DEV_TOKEN_HOURS,
  tenant?: string,
  limits: { trees?: Record<string, string>; groups?: string[] } = {},
): Promise<string> {
  if (auth.mode !== 'jwt' || !('secret' in auth.key)) {
    throw new Error(
      'a development token needs AUTH=jwt with JWT_SECRET (with JWT_JWKS_URL, tokens come from your identity provider)',
    );
  }
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    sub: subject,
    iat: now,
    exp: now + Math.round(hours * 3600),
    ...(auth.issuer ? { iss: auth.issuer } : {}),
    ...(auth.audience ? { aud: auth.audience } : {}),
    ...(tenant ? { [auth.tenantClaim]: tenant } : {}),
    ...(limits.trees ? { [auth.permissionsClaim]: limits.trees } : {}),
    ...(limits.groups ? { [auth.groupsClaim]: limits.groups } : {}),
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(auth.key.secret));
}
