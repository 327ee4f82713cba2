/** One thing wrong with an import file. */
export interface ImportProblem {
  /** The line (CSV) or record number (JSON) it is about, 0 for the whole file: problems are listed in this order. */
  place: number;
  /** What is wrong, starting with where: `line 12: id "a" already used at line 3`. */
  message: string;
}

/** The most problems printed: the count says how many there are in all. */
export const MAX_LISTED = 100;

const count = (n: number): string => `${n.toLocaleString('en-US')} problem${n === 1 ? '' : 's'}`;

/**
 * Every problem of a file, found in one pass (the file's own and those against the table), in
 * the order of its lines or records; the message lists the first MAX_LISTED with the total. The
 * file is refused whole: nothing is written.
 */
export class ImportProblems extends Error {
  /** Every problem's message, in the order of the file. */
  readonly problems: string[];

  constructor(problems: readonly ImportProblem[]) {
    const sorted = [...problems].sort((a, b) => a.place - b.place).map((p) => p.message);
    const shown = sorted.slice(0, MAX_LISTED);
    const heading =
      sorted.length > MAX_LISTED ? `${count(sorted.length)}; the first ${MAX_LISTED}:` : `${count(sorted.length)}:`;
    super(`nothing was written: the file has ${heading}\n${shown.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'ImportProblems';
    this.problems = sorted;
  }
}

/** The characters (code points) of a value that a problem shows. */
export const EXCERPT_LENGTH = 40;

const UNPRINTABLE =
  // eslint-disable-next-line no-control-regex -- escaping control characters is the point
  /[\u0000-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ESCAPES: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** Pure. A control character or lone surrogate as JSON escapes it (`\t`, `\u0000`). */
const escaped = (c: string): string =>
  ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Pure. `text` as a problem shows it, on one line: its first `max` characters (code points), then
 * `…` when it is longer, with control characters (tabs, line breaks) and lone surrogates escaped
 * as in JSON (`\t`, `\n`, `\u0000`).
 */
export function excerpt(text: string, max = EXCERPT_LENGTH): string {
  const points = [...text];
  const cut = points.length > max ? `${points.slice(0, max).join('')}…` : text;
  return cut.replace(UNPRINTABLE, escaped);
}

/** Pure. `text` in double quotes, as an excerpt. */
export const quoted = (text: string, max = EXCERPT_LENGTH): string => `"${excerpt(text, max)}"`;

/**
 * Pure. A value read from a JSON file, in words and as an excerpt: `a number: 7`, `an array:
 * [1,2]`, `a string: "text"`; `nothing` when it is missing.
 */
export function described(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') return `a string: ${quoted(value)}`;
  const kind = Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
  return `${kind}: ${jsonExcerpt(value)}`;
}

/**
 * Pure. A value's JSON as an excerpt. A number JSON has no text for (1e400, read as Infinity) is
 * written as a string ("Infinity") rather than as JSON's null.
 */
export function jsonExcerpt(value: unknown): string {
  try {
    const json = JSON.stringify(value, (_key, v: unknown) =>
      typeof v === 'number' && !Number.isFinite(v) ? `${v}` : v,
    );
    return excerpt(json ?? String(value));
  } catch {
    // Nested too deep to write.
    return excerpt(String(value));
  }
}

/** Pure. A character that has no place in a value, in words: `a tab`, `a line break`, `"-"`. */
export function characterNamed(c: string): string {
  if (c === ' ') return 'a space';
  if (c === '\t') return 'a tab';
  if (c === '\n' || c === '\r') return 'a line break';
  const code = c.codePointAt(0)!;
  if (code >= 0xd800 && code <= 0xdfff) return `a lone surrogate (U+${code.toString(16).toUpperCase()})`;
  if (excerpt(c) !== c) return `a control character (U+${code.toString(16).toUpperCase().padStart(4, '0')})`;
  return `"${c}"`;
}
