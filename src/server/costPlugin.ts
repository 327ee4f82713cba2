import type { ApolloServerPlugin } from '@apollo/server';
import { currentCost } from '../dynamodb/costMeter.js';

/** Adds the operation's DynamoDB cost to every response, as `extensions.dynamodb`. */
export function createCostPlugin(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          const cost = currentCost();
          if (!cost || response.body.kind !== 'single') return;
          response.body.singleResult.extensions = {
            ...response.body.singleResult.extensions,
            dynamodb: {
              requests: cost.requests,
              readUnits: round(cost.readUnits),
              writeUnits: round(cost.writeUnits),
              itemsWritten: cost.itemsWritten,
            },
          };
        },
      };
    },
  };
}

const round = (units: number) => Math.round(units * 1000) / 1000;
