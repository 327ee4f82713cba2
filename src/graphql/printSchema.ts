import { writeFileSync } from 'node:fs';
import { printSubgraphSdl, printTreeSchema, printTypedSchema } from './buildSchema.js';

/**
 * `npm run schema`: regenerates schema/schema.graphql, schema/subgraph.graphql, and
 * schema/catalog.schema.graphql (the schema under NODE_TYPES=schema/catalog.graphql) from the code.
 */
writeFileSync(new URL('../../schema/schema.graphql', import.meta.url), printTreeSchema());
console.log('wrote schema/schema.graphql');
writeFileSync(new URL('../../schema/subgraph.graphql', import.meta.url), printSubgraphSdl());
console.log('wrote schema/subgraph.graphql');
writeFileSync(new URL('../../schema/catalog.schema.graphql', import.meta.url), printTypedSchema());
console.log('wrote schema/catalog.schema.graphql');
