// Counts the DynamoDB commands this process sends, and the limiter's among them, for the
// benchmarks that report calls per request. Start counting once the stack's environment is set:
// the count hooks the shared document client of the current settings (a settings reset builds a
// new one, uncounted). `documents` shares its middleware stack with the
// underlying DynamoDBClient, so this sees every command either sends, once per send (retries
// happen further down the stack); the limiter's calls are those whose every key is on its
// partition (lib/store/limit-counters.ts): an UpdateItem of its counters, or a visitor's admission
// (one transaction of the visitor's and the organization's counters). An answer's transaction,
// which also gives the lease back, is the conversation's.
import { documents } from '#lib/store/client.ts';
import { isLimitsPartition } from '#lib/store/limit-counters.ts';

export interface CallCount {
  calls: number;
  limiterCalls: number;
  /**
   * GetItem calls among them: the lookups warm containers keep for up to a minute (API keys,
   * organizations, database records), so on a warm path they are those caches' refreshes.
   */
  itemReads: number;
}

/** Starts counting; the returned object's fields grow as commands are sent. */
export const countDynamoDbCalls = (): CallCount => {
  const count: CallCount = { calls: 0, limiterCalls: 0, itemReads: 0 };
  documents().middlewareStack.add(
    (next, context) => async (args) => {
      count.calls += 1;
      if (context.commandName === 'GetItemCommand') count.itemReads += 1;
      type Key = { PK?: string | { S?: string } };
      const input = args.input as {
        Key?: Key;
        TransactItems?: Record<string, { Key?: Key; Item?: Key } | undefined>[];
      };
      const keys = input.TransactItems
        ? input.TransactItems.flatMap((item) => Object.values(item).map((write) => write?.Key ?? write?.Item))
        : [input.Key];
      const partitions = keys.map((key) => (typeof key?.PK === 'string' ? key.PK : key?.PK?.S));
      if (partitions.length > 0 && partitions.every((pk) => pk !== undefined && isLimitsPartition(pk)))
        count.limiterCalls += 1;
      return next(args);
    },
    { step: 'initialize', name: 'benchCallCounter' },
  );
  return count;
};
