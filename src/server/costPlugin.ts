import type { ApolloServerPlugin } from '@apollo/server';
import { OperationTypeNode } from 'graphql';
import { ItemImages } from '../dynamodb/awsWriteUnits.js';
import type { DynamoCost } from '../dynamodb/costMeter.js';

/**
 * Adds the operation's DynamoDB cost to every response, as `extensions.dynamodb`, with the tree
 * nodes the answer holds (`itemsReturned`, graphql/returnedNodes.ts) beside the items read. An operation
 * that went over its runtime budget answers no data, only the refusal: never part of an answer
 * as if it were whole.
 */
export function createCostPlugin(): ApolloServerPlugin<{ cost?: DynamoCost; returned?: { nodes: number } }> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, contextValue }) {
          // A mutation remembers the items it reads, for the AWS write units of its writes.
          if (operation?.operation === OperationTypeNode.MUTATION && contextValue.cost)
            contextValue.cost.images = new ItemImages();
        },
        async willSendResponse({ response, contextValue }) {
          const cost = contextValue.cost;
          if (!cost || response.body.kind !== 'single') return;
          const result = response.body.singleResult;
          if (cost.overBudget) {
            result.data = null;
            result.errors = result.errors?.filter((e) => e.extensions?.code === 'QUERY_TOO_COMPLEX').slice(0, 1);
          }
          // Assigned, not spread: an object spread goes through V8's runtime (7 µs a request).
          const extensions = (result.extensions ??= {});
          extensions.dynamodb = {
            requests: cost.requests,
            repeatedRequests: cost.repeatedRequests,
            readUnits: round(cost.readUnits),
            writeUnits: round(cost.writeUnits),
            awsWriteUnits: cost.awsWriteUnits,
            itemsWritten: cost.itemsWritten,
            itemsRead: cost.itemsRead,
            repeatedItemsRead: cost.repeatedItemsRead,
            itemsReturned: contextValue.returned?.nodes ?? 0,
          };
        },
      };
    },
  };
}

const round = (units: number) => Math.round(units * 1000) / 1000;
