import { fileURLToPath } from 'node:url';
import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * `npm run example:codegen`: the app's operation types, by GraphQL Code Generator, offline. The
 * schema is the committed schema/catalog.schema.graphql (what a server serves with
 * NODE_TYPES=schema/catalog.graphql); the documents are the `graphql(...)` calls of src/. It
 * writes src/gql/ (the client preset: a typed `graphql()` whose every document is a
 * TypedDocumentNode, so Apollo Client's hooks know its data and variables) and
 * src/gql/possibleTypes.ts (the types implementing `Node`, for the cache's fragments on it).
 * test/offline/exampleCodegen.test.ts fails when the committed files differ from what this
 * config generates: run the script after changing an operation or the schema.
 */
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

const config: CodegenConfig = {
  schema: here('../../schema/catalog.schema.graphql'),
  documents: [here('src/**/*.{ts,tsx}'), `!${here('src/gql/**')}`],
  // A document the schema does not validate (a field renamed or gone) stops the generation.
  ignoreNoDocuments: false,
  generates: {
    [here('src/gql/')]: {
      preset: 'client',
      // Each query's data type holds the fields of its fragments (Apollo Client masks no data here).
      presetConfig: { fragmentMasking: false },
      config: {
        scalars: { DateTime: 'string', JSONObject: 'Record<string, unknown>' },
        strictScalars: true,
        enumsAsTypes: true,
        useTypeImports: true,
        // Apollo Client adds `__typename` to every selection: the types say so, and a node's
        // type tells its fields apart (`node.__typename === 'Product'`).
        nonOptionalTypename: true,
        // ... but not to an operation's root.
        skipTypeNameForRoot: true,
      },
    },
    [here('src/gql/possibleTypes.ts')]: {
      plugins: ['fragment-matcher'],
      config: { useExplicitTyping: true },
    },
  },
};

export default config;
