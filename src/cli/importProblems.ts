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
