import { badInput } from '../errors.js';
import { ID_PATTERN } from '../storage/validation.js';

/**
 * Relay's global object identification (RELAY_NODE): a global id is the base64 of
 * `<TypeName>:<id>` (`TreeNode:laptops` → `VHJlZU5vZGU6bGFwdG9wcw==`), graphql-relay's convention,
 * so that one `node(id:)` field of a supergraph can tell which type, and so which service, an id
 * belongs to. Only the API shows global ids: resolvers and storage keep the raw ones.
 */
export interface GlobalIds {
  /** The type whose ids these are: the tree node type (`TreeNode`). */
  typeName: string;
  encode(id: string): string;
  /**
   * The raw id of one of this type's global ids. A malformed global id is BAD_USER_INPUT (with
   * `field` in its details); so is one of another type, unless `otherType` is `null`: Relay's
   * `node(id:)` answers null for an object that this service does not hold.
   */
  decode(globalId: string, field?: string, otherType?: 'refuse' | 'null'): string | null;
}

/** The type name and raw id a global id holds; null when the text is no global id at all. */
export function parseGlobalId(globalId: string): { typeName: string; id: string } | null {
  const text = Buffer.from(globalId, 'base64').toString('utf8');
  // Buffer skips whatever is not base64: only a text that encodes back to itself is a global id.
  if (Buffer.from(text, 'utf8').toString('base64') !== globalId) return null;
  const colon = text.indexOf(':');
  return colon > 0 ? { typeName: text.slice(0, colon), id: text.slice(colon + 1) } : null;
}

export function globalIds(typeName: string): GlobalIds {
  const shape = `${typeName}'s global id (base64 of "${typeName}:<id>", <id> matching ${ID_PATTERN.source})`;
  return {
    typeName,
    encode: (id) => Buffer.from(`${typeName}:${id}`, 'utf8').toString('base64'),
    decode(globalId, field = 'id', otherType = 'refuse') {
      const parsed = parseGlobalId(globalId);
      const other = parsed !== null && parsed.typeName !== typeName;
      if (other && otherType === 'null') return null;
      if (other || parsed === null || !ID_PATTERN.test(parsed.id)) {
        const what = other ? `the global id of a ${parsed.typeName.slice(0, 64)}: ` : '';
        throw badInput(`${field} must be a ${shape}, got ${what}"${globalId.slice(0, 120)}"`, { field });
      }
      return parsed.id;
    },
  };
}
