import packageJson from '../package.json' with { type: 'json' };

/** The version of Canopy, from package.json: printed by the server at start and by `tree --version`. */
export const VERSION: string = packageJson.version;
