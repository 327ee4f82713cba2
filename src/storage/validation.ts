import { badInput } from '../errors.js';
import type { JsonObject, PageArgs, DepthWindow } from './treeStore.js';

/** The input rules of the contract (docs/contract.md, "Input rules"), the same under every strategy. */
export const ID_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;
/** In characters (code points): at most 1,024 bytes in UTF-8, whatever the characters. */
export const MAX_NAME_LENGTH = 256;
export const MAX_PAGE_SIZE = 1000;
/** The page size of a list when the query gives none (`first: Int = 100`). */
export const DEFAULT_PAGE_SIZE = 100;
/** The nodes one createNodes may create. */
export const MAX_CREATE_NODES = 1000;
/** A limit as the docs and the schema's descriptions write it: 1000 is "1,000". */
export const grouped = (n: number): string => n.toLocaleString('en-US');
/**
 * The cap of `data`'s JSON text in UTF-8 bytes, as DynamoDB counts strings: a change record carries
 * it twice as that text, and a node item or copy as a map DynamoDB counts at most about 1.5 times
 * it (a list of small numbers), so every item stays far below 400 KB; transactions of many copies
 * are cut by their bytes (TransactionBuilder.holds).
 */
export const MAX_DATA_BYTES = 64 * 1024;

export function checkId(id: string, field = 'id'): string {
  if (!ID_PATTERN.test(id)) {
    // The first 80 characters (code points: no half of a 4-byte character).
    throw badInput(`${field} must match ${ID_PATTERN.source}, got "${[...id].slice(0, 80).join('')}"`, { field });
  }
  return id;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a string is well-formed Unicode (no lone surrogate), as DynamoDB's UTF-8 needs. */
export const isWellFormed = (text: string): boolean => !LONE_SURROGATE.test(text);

/** C0 and C1 control characters (tabs and line breaks included): no place in a label. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001F\u007F-\u009F]/;

export function checkName(name: string): string {
  const length = [...name].length;
  if (length < 1 || length > MAX_NAME_LENGTH || name.trim().length === 0) {
    throw badInput(`name must be 1..${MAX_NAME_LENGTH} characters and not blank, got ${length}`, {
      field: 'name',
    });
  }
  if (CONTROL_CHARACTER.test(name) || !isWellFormed(name)) {
    throw badInput('name must be well-formed Unicode without control characters (tabs, line breaks)', {
      field: 'name',
    });
  }
  return name;
}

/**
 * Levels of objects and lists in `data`, `data` itself included: DynamoDB stores an item's
 * attributes nested 32 levels deep, the item being the first.
 */
export const MAX_DATA_NESTING = 31;
/** The smallest magnitude a DynamoDB number can have, besides 0. */
const MIN_NUMBER_MAGNITUDE = 1e-130;

/**
 * What DynamoDB can store, checked before any call: at most MAX_DATA_NESTING levels, numbers it
 * stores exactly (integers within ±(2^53 - 1); other numbers no smaller in magnitude than 1e-130),
 * object keys that are non-empty and not `__proto__`, well-formed Unicode, and at most
 * MAX_DATA_BYTES once serialized. Walks without recursion, so no nesting can overflow the stack.
 */
export function checkData(data: JsonObject | null | undefined): void {
  if (data === null || data === undefined) return;
  const refuse = (why: string, at: string): never => {
    throw badInput(`data${at} ${why}`, { field: 'data' });
  };
  const pending: Array<{ value: unknown; level: number; at: string }> = [{ value: data, level: 1, at: '' }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, level, at } = next;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) refuse('is not a finite number', at);
      if (Number.isInteger(value) ? !Number.isSafeInteger(value) : Math.abs(value) < MIN_NUMBER_MAGNITUDE) {
        refuse(`is a number DynamoDB cannot store exactly (${value}); send it as a string`, at);
      }
    } else if (typeof value === 'string') {
      if (!isWellFormed(value)) refuse('holds a string that is not well-formed Unicode (a lone surrogate)', at);
    } else if (value !== null && typeof value === 'object') {
      if (level > MAX_DATA_NESTING) refuse(`nests deeper than ${MAX_DATA_NESTING} levels`, at);
      if (Array.isArray(value)) {
        value.forEach((item, index) => pending.push({ value: item, level: level + 1, at: `${at}[${index}]` }));
      } else {
        for (const [key, item] of Object.entries(value)) {
          if (key === '' || key === '__proto__' || !isWellFormed(key)) {
            refuse(`has a key DynamoDB cannot store or this server will not take (${JSON.stringify(key)})`, at);
          }
          pending.push({ value: item, level: level + 1, at: `${at}.${key.slice(0, 40)}` });
        }
      }
    }
  }
  const bytes = Buffer.byteLength(JSON.stringify(data));
  if (bytes > MAX_DATA_BYTES) {
    throw badInput(`data must serialize to at most ${MAX_DATA_BYTES} bytes of JSON in UTF-8, got ${bytes}`, {
      field: 'data',
    });
  }
}

export function checkPage(page: PageArgs): void {
  if (!Number.isInteger(page.first) || page.first < 1 || page.first > MAX_PAGE_SIZE) {
    const field = page.backwards ? 'last' : 'first';
    throw badInput(`${field} must be in 1..${MAX_PAGE_SIZE}, got ${page.first}`, { field });
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

/** The depth bound of a count of descendants: null (no bound) or at least 0. */
export function checkCountDepth(maxDepth: number | null): void {
  if (maxDepth !== null && (!Number.isInteger(maxDepth) || maxDepth < 0)) {
    throw badInput(`maxDepth must be >= 0, got ${maxDepth}`, { field: 'maxDepth' });
  }
}
