import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { AuthConfig } from '../config.js';
import { TreeError, unauthenticated } from '../errors.js';
import { tenantFrom, type Caller } from './caller.js';
import { grantsFrom } from './grants.js';
import { tokenPrincipals } from './principals.js';

/** What verifies a token: AUTH=jwt's configuration (config.ts). */
export type JwtOptions = Omit<Extract<AuthConfig, { mode: 'jwt' }>, 'mode'>;

/** What a shared secret verifies: HS256 only. */
export const SECRET_ALGORITHMS = ['HS256'];
/** What a JWKS verifies: asymmetric algorithms only (no HS/RS confusion, never `none`). */
export const JWKS_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];

/** Why a token is refused, in words a client developer can act on. */
function reasonOf(error: errors.JOSEError): string {
  if (error instanceof errors.JWTExpired) return 'the token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'nbf') return 'the token is not valid yet (nbf)';
    if (error.claim === 'iss') return 'the token is from another issuer (iss)';
    if (error.claim === 'aud') return 'the token is for another audience (aud)';
    if (error.claim === 'exp') return 'the token has no expiry (exp)';
    return `the token's ${error.claim} claim is not accepted`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return "the token's algorithm is not accepted";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the token's signature does not verify";
  if (error instanceof errors.JWKSNoMatchingKey) return "no key of the issuer's JWKS matches the token";
  return 'the token is not a valid JWT';
}

/**
 * Verifies bearer tokens (jose): the signature (HS256 with JWT_SECRET, or an asymmetric key of
 * the JWKS at JWT_JWKS_URL, fetched when an unknown `kid` arrives and cached), `exp` (required),
 * `nbf`, and `iss` and `aud` when configured, each within the clock skew. Answers the caller, or
 * throws UNAUTHENTICATED; a JWKS that cannot be fetched is SERVICE_UNAVAILABLE.
 */
export function createJwtVerifier(options: JwtOptions): (token: string) => Promise<Caller> {
  const bySecret = 'secret' in options.key;
  const key: Uint8Array | JWTVerifyGetKey =
    'secret' in options.key
      ? new TextEncoder().encode(options.key.secret)
      : createRemoteJWKSet(new URL(options.key.jwksUrl), { timeoutDuration: 5000, cooldownDuration: 30_000 });
  const verifyOptions = {
    algorithms: bySecret ? SECRET_ALGORITHMS : JWKS_ALGORITHMS,
    clockTolerance: options.clockSkewSeconds,
    requiredClaims: ['exp'],
    ...(options.issuer ? { issuer: options.issuer } : {}),
    ...(options.audience ? { audience: options.audience } : {}),
  };
  return async (token) => {
    try {
      // One call per overload of jwtVerify: a key, or the JWKS's key function.
      const { payload } = await (typeof key === 'function'
        ? jwtVerify(token, key, verifyOptions)
        : jwtVerify(token, key, verifyOptions));
      const grants = grantsFrom(payload[options.permissionsClaim], options.permissionsClaim);
      const tenant = tenantFrom(payload[options.tenantClaim], options.tenantClaim);
      // jose takes the token while the second it reads (rounded down) is before exp + the skew.
      const checkAgainAt = Math.ceil(payload.exp! + options.clockSkewSeconds) * 1000;
      return {
        via: 'jwt',
        subject: typeof payload.sub === 'string' ? payload.sub : null,
        tenant,
        grants,
        principals: tokenPrincipals(payload.sub, payload[options.groupsClaim], options.groupsClaim),
        checkAgainAt,
      };
    } catch (error) {
      if (error instanceof TreeError) throw error;
      // The JWKS could not be fetched (a timeout, a refused connection, an answer that is no JWKS).
      if (
        !bySecret &&
        (error instanceof errors.JWKSTimeout ||
          error instanceof errors.JWKSInvalid ||
          !(error instanceof errors.JOSEError))
      ) {
        throw new TreeError(
          'SERVICE_UNAVAILABLE',
          "the issuer's signing keys (JWT_JWKS_URL) cannot be fetched; try again later",
          {
            cause: error instanceof Error ? error.name : String(error),
          },
        );
      }
      if (error instanceof errors.JOSEError) throw unauthenticated(reasonOf(error));
      throw error;
    }
  };
}
