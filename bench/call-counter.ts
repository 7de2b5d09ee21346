// Counts the DynamoDB commands this process sends, and the limiter's among them, for the
// benchmarks that report calls per request. Start counting once the stack's environment is set:
// the count hooks the shared document client of the current settings (a settings reset builds a
// new one, uncounted). `documents` shares its middleware stack with the
// underlying DynamoDBClient, so this sees every command either sends, once per send (retries
// happen further down the stack); the limiter's calls are those on its partition
// (lib/store/limit-counters.ts).
import { documents } from '#lib/store/client.ts';
import { isLimitsPartition } from '#lib/store/limit-counters.ts';

export interface CallCount {
  calls: number;
  limiterCalls: number;
}

/** Starts counting; the returned object's fields grow as commands are sent. */
export const countDynamoDbCalls = (): CallCount => {
  const count: CallCount = { calls: 0, limiterCalls: 0 };
  documents().middlewareStack.add(
    (next) => async (args) => {
      count.calls += 1;
      const pk = (args.input as { Key?: { PK?: string | { S?: string } } }).Key?.PK;
      const partition = typeof pk === 'string' ? pk : pk?.S;
      if (partition !== undefined && isLimitsPartition(partition)) count.limiterCalls += 1;
      return next(args);
    },
    { step: 'initialize', name: 'benchCallCounter' },
  );
  return count;
};
