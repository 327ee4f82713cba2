import { SignJWT, type JWTPayload } from 'jose';
import type { GraphQLResponse, TestServer } from './server.js';

/** Sends an operation as one caller. */
export type Gql = (query: string, variables?: Record<string, unknown>) => Promise<GraphQLResponse>;

/**
 * A caller of a server run with AUTH=jwt and JWT_SECRET=`secret`: its operations carry an HS256
 * token with `claims` (sub, trees, tenant, ...), valid for 15 minutes.
 */
export async function jwtCaller(server: TestServer, secret: string, claims: JWTPayload): Promise<Gql> {
  const jwt = await new SignJWT({ exp: Math.floor(Date.now() / 1000) + 900, ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(secret));
  return (query, variables) => server.gql(query, variables, { authorization: `Bearer ${jwt}` });
}
