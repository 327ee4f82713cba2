import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Runs the longest test files first, whatever their project, so that the last minute of a run
 * is not one long file alone: seconds per file from test/durations.json (a run's figures, files
 * of 3 s or more), the rest after, largest first. Without it a fresh clone (no vitest cache)
 * ran the second project's long files last, on a machine otherwise idle.
 */
const DURATIONS = JSON.parse(readFileSync(new URL('../durations.json', import.meta.url), 'utf8')) as Record<
  string,
  number
>;

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const seconds = (spec: TestSpecification) => DURATIONS[relative(root, spec.moduleId).split('\\').join('/')] ?? 0;
    return [...files].sort((a, b) => seconds(b) - seconds(a));
  }
}
