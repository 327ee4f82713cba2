/**
 * The data calls whose answers hold nothing but JSON values and attribute values: no timestamp,
 * no big number, no blob outside an attribute value. Their answers, parsed by JSON.parse, are
 * what the SDK's deserializer gives, apart from binary attribute values (base64 text on the wire),
 * which nativeOf decodes.
 */
const PLAIN_ANSWERS = new Set([
  'GetItem',
  'BatchGetItem',
  'Query',
  'Scan',
  'TransactGetItems',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'TransactWriteItems',
]);

interface Response {
  statusCode: number;
  headers: Record<string, string | undefined>;
  body: unknown;
}

/** The part of the SDK's JSON protocol (AwsJson1_0Protocol) this replaces on success. */
export interface JsonProtocol {
  deserializeResponse(
    operation: { name: string },
    context: { streamCollector: (body: unknown) => Promise<Uint8Array> },
    response: Response,
  ): Promise<unknown>;
}

/**
 * A successful answer to a data call is parsed once, by JSON.parse, and left in DynamoDB's wire
 * form for nativeOutput to make plain. The SDK's deserializer parses it the same way, then walks
 * every attribute value of every item against the service's schema: on a page of a thousand items
 * that walk cost half as much again as the parse itself. Errors, and every other call, go the
 * SDK's way (its error names and cancellation reasons are what the retries and serviceErrors.ts
 * read).
 */
export function parseAnswersAsJson(protocol: JsonProtocol): void {
  const sdk = Object.getPrototypeOf(protocol) as JsonProtocol;
  protocol.deserializeResponse = async (operation, context, response) => {
    if (response.statusCode !== 200 || !PLAIN_ANSWERS.has(operation.name)) {
      return sdk.deserializeResponse.call(protocol, operation, context, response);
    }
    const bytes = await context.streamCollector(response.body);
    const answer = (
      bytes.byteLength === 0 ? {} : JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString())
    ) as Record<string, unknown>;
    const { headers } = response;
    answer.$metadata = {
      httpStatusCode: response.statusCode,
      requestId: headers['x-amzn-requestid'] ?? headers['x-amzn-request-id'] ?? headers['x-amz-request-id'],
      extendedRequestId: headers['x-amz-id-2'],
      cfId: headers['x-amz-cf-id'],
    };
    return answer;
  };
}
