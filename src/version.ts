import packageJson from '../package.json' with { type: 'json' };

/** The version of Canopy, from package.json: printed by the server at start and by `tree --version`. */
export const VERSION: string = packageJson.version;

/** What Canopy's DynamoDB calls name as their user agent. */
export const USER_AGENT = `canopy/${VERSION}`;
