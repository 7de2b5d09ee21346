// Counts the DynamoDB commands this process sends through the shared document client (every
// store module's), as bench/call-counter.ts does for the benchmarks: one per round trip (the
// SDK's own retries happen further down the stack). `stop` takes the counter out again.
import { documents } from '#lib/store/client.ts';

export interface DynamoDbCalls {
  /** Command names, in the order they were sent (`UpdateCommand`, `TransactWriteCommand`, …). */
  readonly sent: string[];
  stop: () => void;
}

let counters = 0;

export const recordDynamoDbCalls = (): DynamoDbCalls => {
  const sent: string[] = [];
  const name = `testCallCounter${++counters}`;
  documents().middlewareStack.add(
    (next, context) => async (args) => {
      sent.push(String(context.commandName ?? 'unknown'));
      return next(args);
    },
    { step: 'initialize', name },
  );
  return { sent, stop: () => void documents().middlewareStack.remove(name) };
};
