import { TENANT_PATTERN } from '../dynamodb/keys.js';
import { STRATEGY_NAMES, type StrategyName } from '../storage/strategies/strategies.js';
import { EXPORT_FORMATS, type ExportFormat } from './exportTree.js';
import { USAGE } from './help.js';
import { DEFAULT_LONGER_THAN } from './respaceTree.js';

/** A bad argument: its message and the usage are printed, and the exit code is 2. */
export class UsageError extends Error {}

/** `--tenant T`: T, or null for the default tenant. */
export function tenantOption(tenant: string | undefined): string | null {
  if (tenant !== undefined && !TENANT_PATTERN.test(tenant)) {
    throw new UsageError(
      `--tenant takes a tenant name of 1 to 64 letters, digits, '_', '.', ':' or '-', got ${JSON.stringify(tenant)}`,
    );
  }
  return tenant ?? null;
}

/** `--format json|csv`, when given. */
export function formatOption(format: string | undefined): ExportFormat | undefined {
  if (format !== undefined && !(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`--format takes ${EXPORT_FORMATS.join(' or ')}, got ${JSON.stringify(format)}`);
  }
  return format as ExportFormat | undefined;
}

/** `--longer-than N` of `reindex --respace`: at least 2 characters. */
export function longerThanOption(value: string | undefined): number {
  const longerThan = value === undefined ? DEFAULT_LONGER_THAN : Number(value);
  if (!Number.isInteger(longerThan) || longerThan < 2) {
    throw new UsageError(`--longer-than takes a number of characters of at least 2, got ${JSON.stringify(value)}`);
  }
  return longerThan;
}

/** `--hours N` of `token`, when given: above 0, at most a year. */
export function hoursOption(value: string | undefined): number | undefined {
  const hours = value === undefined ? undefined : Number(value);
  if (hours !== undefined && !(hours > 0 && hours <= 24 * 366)) {
    throw new UsageError(`--hours must be a number of hours above 0, got ${JSON.stringify(value)}`);
  }
  return hours;
}

/**
 * A strategy's name (or the fallback when none is given). Checked once the table is open, as it
 * always was: a bad one ends the command with exit code 1.
 */
export function strategyArg(value: string | undefined, fallback?: StrategyName): StrategyName {
  const chosen = value ?? fallback;
  if (!chosen || !(STRATEGY_NAMES as readonly string[]).includes(chosen)) {
    const expected = `expected a strategy (${STRATEGY_NAMES.join(', ')}), got ${JSON.stringify(value ?? null)}`;
    throw new Error(`${expected}\n${USAGE}`);
  }
  return chosen as StrategyName;
}
