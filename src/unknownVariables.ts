import { distance } from 'fastest-levenshtein';
import { CONFIG_VARIABLES } from './configVariables.js';

/**
 * Mistyped variables are read by no one, so the start goes on without them: `TREE_STRATEGI=closure
 * AUHT=jwt npm start` serves adjacency, without authentication. These are the warnings that
 * name them (config.ts, configWarnings): a variable that Canopy does not read, and either close
 * to one it reads, or using one of its prefixes. A warning, not a refusal: the environment holds
 * every other program's variables too.
 */

/**
 * The prefixes of Canopy's variables (their first word: TREE_, DYNAMODB_, JOB_, ...), except
 * those other software shares: the AWS SDK's (AWS_), Node's (NODE_) and OpenTelemetry's (OTEL_)
 * variables are many, and read by the libraries, not by the configuration; API_ starts the
 * variables of too many programs (API_URL, API_TOKEN) to warn of them.
 */
const SHARED_PREFIXES: ReadonlySet<string> = new Set(['AWS_', 'NODE_', 'OTEL_', 'API_']);
export const CANOPY_PREFIXES: readonly string[] = [
  ...new Set(CONFIG_VARIABLES.flatMap((name) => (name.includes('_') ? [name.slice(0, name.indexOf('_') + 1)] : []))),
].filter((prefix) => !SHARED_PREFIXES.has(prefix));

/**
 * How far a typo may be from the name it meant: 2 edits (a swap of two neighbours counts as one),
 * 1 for names of 4 letters, whose neighbours at 2 edits are common words (HOST and HOME).
 */
const reach = (name: string): number => (name.length <= 4 ? 1 : 2);

/** Levenshtein's distance, with a swap of two neighbouring letters (AUHT for AUTH) as one edit. */
function typoDistance(a: string, b: string): number {
  if (a.length === b.length) {
    const differ = [...a].flatMap((char, i) => (char === b[i] ? [] : [i]));
    const [i, j] = differ;
    if (differ.length === 2 && j === i! + 1 && a[i!] === b[j] && a[j] === b[i!]) return 1;
  }
  return distance(a, b);
}

/** The variable that `name` most likely meant (letter case aside), if one is within reach. */
export function suggestionFor(name: string): string | undefined {
  const upper = name.toUpperCase();
  let best: { name: string; distance: number } | undefined;
  for (const known of CONFIG_VARIABLES) {
    const d = typoDistance(upper, known);
    if (d <= reach(known) && (best === undefined || d < best.distance)) best = { name: known, distance: d };
  }
  return best?.name;
}

/** One warning per variable of `names` (an environment's) that looks meant for Canopy but is none of its own. */
export function unknownVariables(names: readonly string[]): string[] {
  const known: ReadonlySet<string> = new Set(CONFIG_VARIABLES);
  return names
    .filter((name) => !known.has(name))
    .flatMap((name) => {
      const meant = suggestionFor(name);
      if (meant) return [`unknown variable ${name}: did you mean ${meant}?`];
      if (CANOPY_PREFIXES.some((prefix) => name.startsWith(prefix))) {
        return [`unknown variable ${name}: Canopy reads no variable of that name (README.md: Configuration)`];
      }
      return [];
    });
}
