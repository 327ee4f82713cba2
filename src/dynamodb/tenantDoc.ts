/* eslint-disable
   @typescript-eslint/no-explicit-any,
   @typescript-eslint/no-unsafe-argument,
   @typescript-eslint/no-unsafe-assignment,
   @typescript-eslint/no-unsafe-call,
   @typescript-eslint/no-unsafe-member-access
   -- The client rewrites the keys inside eight commands' inputs and outputs, whose fields it reads as `any`. */
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { GLOBAL_PKS, TENANT_PATTERN, TENANT_PK_PREFIX } from './keys.js';

type Keyed = Record<string, unknown> & { pk?: unknown };
type Input = Record<string, any>;
type Output = Record<string, any>;

/** What a default tenant's Scan keeps: no tenant's item, no global one. */
const globals = [...GLOBAL_PKS];
const DEFAULT_TENANT_SCAN = {
  FilterExpression: `NOT begins_with(#pk, :tenants) AND NOT #pk IN (${globals.map((_, i) => `:g${i}`).join(', ')})`,
  values: Object.fromEntries([[':tenants', TENANT_PK_PREFIX], ...globals.map((pk, i) => [`:g${i}`, pk])]) as Record<
    string,
    string
  >,
};

/** The pk prefix of a tenant other than the default one (whose keys have none). */
export const tenantPrefix = (tenant: string): string => `${TENANT_PK_PREFIX}${tenant}#`;

/**
 * The document client of one tenant (TENANT_CLAIM): every key it sends gets the tenant's prefix
 * (`T#<tenant>#`) and every key it receives loses it, so that the layers above never see a
 * tenant and cannot reach another tenant's items, whatever key, cursor or id they are handed.
 * Only the global partitions (GLOBAL_PKS: API keys, the tenants with open jobs) are shared. A
 * Scan reads the tenant's items only. Commands other than the eight the storage layer sends are
 * refused, and a received key without the prefix is an error: it fails closed.
 *
 * The default tenant (null) keeps unprefixed keys, so that a table written before tenants keeps
 * working; its Scans leave out the other tenants' items and the global ones.
 */
export function tenantDoc(doc: DynamoDBDocumentClient, tenant: string | null): DynamoDBDocumentClient {
  if (tenant !== null && !TENANT_PATTERN.test(tenant)) throw new Error(`"${tenant}" is no tenant name`);
  const keys = tenantKeys(tenant);
  const send = async (command: { input: Input }, ...rest: unknown[]): Promise<unknown> => {
    if (tenant === null && !(command instanceof ScanCommand))
      return (doc.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
    const [translated, received] = translate(command, keys);
    const output = (await (doc.send as (...args: unknown[]) => Promise<Output>)(translated, ...rest)) ?? {};
    received(output);
    return output;
  };
  return new Proxy(doc, {
    get: (target, property, receiver) =>
      property === 'send' ? send : (Reflect.get(target, property, receiver) as unknown),
  });
}

/** How one tenant's keys go out (prefixed) and come back (the prefix taken off, in place). */
interface TenantKeys {
  tenant: string | null;
  prefix: string;
  inKey: (key: Keyed | undefined) => Keyed | undefined;
  outKey: (key: Keyed | undefined) => void;
}

/** A command as the tenant's client sends it, and what undoes its keys in the answer. */
type Translated = [{ input: Input }, (out: Output) => void];

const nothingBack = (): void => {};

/** The keys of `tenant`: the default tenant's are left as they are; the global partitions too. */
function tenantKeys(tenant: string | null): TenantKeys {
  const prefix = tenant === null ? '' : tenantPrefix(tenant);
  return {
    tenant,
    prefix,
    inKey: (key) => {
      if (!key || tenant === null) return key;
      const pk = String(key.pk);
      return GLOBAL_PKS.has(pk) ? key : { ...key, pk: prefix + pk };
    },
    outKey: (key) => {
      if (!key || tenant === null) return;
      const pk = String(key.pk);
      if (GLOBAL_PKS.has(pk)) return;
      if (!pk.startsWith(prefix)) throw new Error(`an item outside tenant "${tenant}" reached its client`);
      key.pk = pk.slice(prefix.length);
    },
  };
}

/** One of the eight commands the storage layer sends, for the tenant; any other is refused. */
function translate(command: { input: Input }, keys: TenantKeys): Translated {
  const { input } = command;
  if (command instanceof QueryCommand) return translateQuery(input, keys);
  if (command instanceof BatchGetCommand) return translateBatchGet(input, keys);
  if (command instanceof BatchWriteCommand) return translateBatchWrite(input, keys);
  if (command instanceof TransactWriteCommand) return translateTransactWrite(input, keys);
  // One item written alone (writeAlone.ts): no key comes back.
  if (command instanceof PutCommand)
    return [new PutCommand({ ...input, Item: keys.inKey(input.Item) } as never), nothingBack];
  if (command instanceof UpdateCommand)
    return [new UpdateCommand({ ...input, Key: keys.inKey(input.Key) } as never), nothingBack];
  if (command instanceof DeleteCommand)
    return [new DeleteCommand({ ...input, Key: keys.inKey(input.Key) } as never), nothingBack];
  if (command instanceof ScanCommand) return translateScan(input, keys);
  throw new Error(`a tenant client does not send ${command.constructor.name}`);
}

/** A Query built by keyQuery: its partition and its start key the tenant's. */
function translateQuery(input: Input, { inKey, outKey }: TenantKeys): Translated {
  if (
    !/^#pk = :pk( |$)/.test(String(input.KeyConditionExpression)) ||
    input.ExpressionAttributeNames?.['#pk'] !== 'pk'
  ) {
    throw new Error('a tenant client only runs Queries built by keyQuery');
  }
  const values = {
    ...input.ExpressionAttributeValues,
    ':pk': inKey({ pk: input.ExpressionAttributeValues[':pk'] })!.pk,
  };
  return [
    new QueryCommand({
      ...input,
      ExpressionAttributeValues: values,
      ExclusiveStartKey: inKey(input.ExclusiveStartKey),
    } as never),
    (out) => {
      // An item read without its pk (withProjection) is in the Query's partition, the tenant's.
      for (const item of out.Items ?? []) if ((item as Keyed).pk !== undefined) outKey(item);
      outKey(out.LastEvaluatedKey);
    },
  ];
}

/** A BatchGet: its keys, the items and the unprocessed keys that come back. */
function translateBatchGet(input: Input, { inKey, outKey }: TenantKeys): Translated {
  const requests = Object.fromEntries(
    Object.entries(input.RequestItems as Input).map(([table, request]) => [
      table,
      { ...request, Keys: request.Keys.map(inKey) },
    ]),
  );
  return [
    new BatchGetCommand({ ...input, RequestItems: requests } as never),
    (out) => {
      for (const items of Object.values<Keyed[]>(out.Responses ?? {})) for (const item of items) outKey(item);
      for (const request of Object.values<Input>(out.UnprocessedKeys ?? {}))
        for (const key of request.Keys ?? []) outKey(key);
    },
  ];
}

/** A BatchWrite: its puts' items and deletes' keys, the unprocessed ones that come back. */
function translateBatchWrite(input: Input, { inKey, outKey }: TenantKeys): Translated {
  const inWrite = (w: Input) =>
    w.PutRequest
      ? { PutRequest: { Item: inKey(w.PutRequest.Item) } }
      : { DeleteRequest: { Key: inKey(w.DeleteRequest.Key) } };
  const requests = Object.fromEntries(
    Object.entries(input.RequestItems as Record<string, Input[]>).map(([table, writes]) => [
      table,
      writes.map(inWrite),
    ]),
  );
  return [
    new BatchWriteCommand({ ...input, RequestItems: requests } as never),
    (out) => {
      for (const writes of Object.values<Input[]>(out.UnprocessedItems ?? {})) {
        for (const w of writes) outKey(w.PutRequest?.Item ?? w.DeleteRequest?.Key);
      }
    },
  ];
}

/** A transaction: every action's item or key (no key comes back). */
function translateTransactWrite(input: Input, { inKey }: TenantKeys): Translated {
  const items = (input.TransactItems as Input[]).map((action) => {
    const [[kind, body]] = Object.entries(action) as [[string, Input]];
    return { [kind]: kind === 'Put' ? { ...body, Item: inKey(body.Item) } : { ...body, Key: inKey(body.Key) } };
  });
  return [new TransactWriteCommand({ ...input, TransactItems: items } as never), nothingBack];
}

/** A whole-table Scan, filtered to the tenant's items (the default tenant's: no tenant's, no global one). */
function translateScan(input: Input, { tenant, prefix, inKey, outKey }: TenantKeys): Translated {
  if (input.FilterExpression || input.IndexName) throw new Error('a tenant client only runs whole-table Scans');
  const filter =
    tenant === null
      ? DEFAULT_TENANT_SCAN
      : { FilterExpression: 'begins_with(#pk, :tenant)', values: { ':tenant': prefix } };
  return [
    new ScanCommand({
      ...input,
      FilterExpression: filter.FilterExpression,
      ExpressionAttributeNames: { '#pk': 'pk' },
      ExpressionAttributeValues: filter.values,
      ExclusiveStartKey: inKey(input.ExclusiveStartKey),
    } as never),
    (out) => {
      for (const item of out.Items ?? []) outKey(item);
      outKey(out.LastEvaluatedKey);
    },
  ];
}
