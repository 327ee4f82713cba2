import { badInput } from '../errors.js';
import type { JsonObject, PageArgs, DepthWindow } from './treeStore.js';

/** The input rules of the contract (docs/contract.md, "Input rules"), the same under every strategy. */
export const ID_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;
export const MAX_NAME_LENGTH = 256;
export const MAX_PAGE_SIZE = 1000;
/** Serialized size cap for `data`, so that a node and its edge copy stay far below 400 KB. */
export const MAX_DATA_BYTES = 64 * 1024;

export function checkId(id: string, field = 'id'): string {
  if (!ID_PATTERN.test(id)) {
    throw badInput(`${field} must match ${ID_PATTERN.source}, got "${id.slice(0, 80)}"`, { field });
  }
  return id;
}

export function checkName(name: string): string {
  const length = [...name].length;
  if (length < 1 || length > MAX_NAME_LENGTH || name.trim().length === 0) {
    throw badInput(`name must be 1..${MAX_NAME_LENGTH} characters and not blank, got ${length}`, {
      field: 'name',
    });
  }
  return name;
}

export function checkData(data: JsonObject | null | undefined): void {
  if (data === null || data === undefined) return;
  const bytes = Buffer.byteLength(JSON.stringify(data));
  if (bytes > MAX_DATA_BYTES) {
    throw badInput(`data must serialize to at most ${MAX_DATA_BYTES} bytes, got ${bytes}`, { field: 'data' });
  }
}

export function checkPage(page: PageArgs): void {
  if (!Number.isInteger(page.first) || page.first < 1 || page.first > MAX_PAGE_SIZE) {
    throw badInput(`first must be in 1..${MAX_PAGE_SIZE}, got ${page.first}`, { field: 'first' });
  }
}

export function checkWindow(window: DepthWindow): void {
  if (window.minDepth < 0) {
    throw badInput(`minDepth must be >= 0, got ${window.minDepth}`, { field: 'minDepth' });
  }
  if (window.maxDepth !== null && window.maxDepth < window.minDepth) {
    throw badInput(`maxDepth must be >= minDepth (${window.minDepth}), got ${window.maxDepth}`, {
      field: 'maxDepth',
    });
  }
}
