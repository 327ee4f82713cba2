import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '@graphql-codegen/cli';
import { parse, print, visit } from 'graphql';
import { describe, expect, it, vi } from 'vitest';
import config from '../../examples/tree-explorer/codegen.js';

/**
 * The example app's generated operation types (examples/tree-explorer/src/gql/, committed) are
 * what its codegen config makes of the committed typed schema and the app's documents, in memory:
 * an operation changed without `npm run example:codegen`, or a schema that no longer has what an
 * operation asks for, fails here, before any browser test.
 */
const GENERATED = fileURLToPath(new URL('../../examples/tree-explorer/src/gql/', import.meta.url));
const SCHEMA = fileURLToPath(new URL('../../schema/catalog.schema.graphql', import.meta.url));

const generated = (schema = config.schema) =>
  generate({ ...config, schema, silent: true }, false) as Promise<Array<{ filename: string; content: string }>>;

describe('the example app’s generated operation types', () => {
  it('are what `npm run example:codegen` writes, file for file', async () => {
    const outputs = await generated();
    expect(outputs.map(({ filename }) => filename).sort()).toEqual(
      readdirSync(GENERATED)
        .map((name) => join(GENERATED, name))
        .sort(),
    );
    for (const { filename, content } of outputs) {
      expect(content, `${filename} is stale: run npm run example:codegen`).toBe(readFileSync(filename, 'utf8'));
    }
  });

  it('cannot be generated from a schema that lacks what an operation asks for', async () => {
    // The typed schema, but a Product has no price.
    const withoutPrice = print(
      visit(parse(readFileSync(SCHEMA, 'utf8')), {
        ObjectTypeDefinition: (type) =>
          type.name.value === 'Product'
            ? { ...type, fields: type.fields?.filter((field) => field.name.value !== 'price') }
            : undefined,
      }),
    );
    const folder = mkdtempSync(join(tmpdir(), 'canopy-codegen-'));
    // Codegen also logs that it wrote nothing.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      writeFileSync(join(folder, 'schema.graphql'), withoutPrice);
      await expect(generated(join(folder, 'schema.graphql'))).rejects.toThrow(
        /Cannot query field "price" on type "Product"/,
      );
    } finally {
      logged.mockRestore();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
