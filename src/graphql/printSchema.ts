import { writeFileSync } from 'node:fs';
import { printTreeSchema } from './buildSchema.js';

/** `npm run schema`: regenerates schema/schema.graphql from the code. */
writeFileSync(new URL('../../schema/schema.graphql', import.meta.url), printTreeSchema());
console.log('wrote schema/schema.graphql');
