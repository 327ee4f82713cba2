import { writeFileSync } from 'node:fs';
import { printSubgraphSdl, printTreeSchema } from './buildSchema.js';

/** `npm run schema`: regenerates schema/schema.graphql and schema/subgraph.graphql from the code. */
writeFileSync(new URL('../../schema/schema.graphql', import.meta.url), printTreeSchema());
console.log('wrote schema/schema.graphql');
writeFileSync(new URL('../../schema/subgraph.graphql', import.meta.url), printSubgraphSdl());
console.log('wrote schema/subgraph.graphql');
