/**
 * The example's ports, all moved by one variable, GATEWAY_PORT (default 4200): the gateway on it,
 * the four subgraphs on the four ports after it (Canopy, builds, catalogue, accounts), and its
 * DynamoDB Local 4,000 above it (8200 by default).
 */
export interface SupergraphPorts {
  gateway: number;
  canopy: number;
  builds: number;
  catalogue: number;
  accounts: number;
  dynamodb: number;
}

export const DEFAULT_GATEWAY_PORT = 4200;
/** How far above the gateway's port its DynamoDB Local listens. */
const DYNAMODB_ABOVE = 4000;
const HIGHEST_GATEWAY_PORT = 65535 - DYNAMODB_ABOVE;

/**
 * Pure. The ports for GATEWAY_PORT (unset or empty: the default); any other value but a port it
 * can take throws, naming the variable.
 */
export function supergraphPorts(gatewayPort: string | undefined): SupergraphPorts {
  const gateway = gatewayPort === undefined || gatewayPort === '' ? DEFAULT_GATEWAY_PORT : Number(gatewayPort);
  if (!/^\d*$/.test(gatewayPort ?? '') || gateway < 1 || gateway > HIGHEST_GATEWAY_PORT) {
    throw new Error(
      `GATEWAY_PORT must be a port number from 1 to ${HIGHEST_GATEWAY_PORT} (the example also listens on the ` +
        `four ports after it, and on the one ${DYNAMODB_ABOVE} above it), got ${JSON.stringify(gatewayPort)}`,
    );
  }
  return {
    gateway,
    canopy: gateway + 1,
    builds: gateway + 2,
    catalogue: gateway + 3,
    accounts: gateway + 4,
    dynamodb: gateway + DYNAMODB_ABOVE,
  };
}
