// One page of a cursor list, read from a DynamoDB Query. It asks for limit+1 items so that
// `hasMore` is the truth (no last empty page behind hasMore: true), keeps querying when
// DynamoDB stops early (its 1 MB read limit), and trims to a byte budget so a page of large
// messages still fits a Lambda response. The next page starts after the last item returned,
// never at LastEvaluatedKey, so a trimmed page continues exactly where it ends. Callers start a
// page with a sort-key condition ("after this position") rather than ExclusiveStartKey: the
// same seek for DynamoDB, and DynamoDB Local, which walks up to an ExclusiveStartKey, then serves
// page 200 as fast as page 1 (bench/conversations.ts).
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { documents } from './client.ts';

export interface Page<T> {
  items: T[];
  hasMore: boolean;
}

export interface PageQuery<T> {
  /** The Query, its key condition starting after the previous page; without Limit and ExclusiveStartKey. */
  input: Omit<QueryCommandInput, 'Limit' | 'ExclusiveStartKey'>;
  limit: number;
  parse: (item: Record<string, unknown>) => T;
  /** Approximate response bytes of one item; with maxBytes, ends the page early. */
  sizeOf?: (item: T) => number;
  maxBytes?: number;
  /**
   * For a query with an ownership filter whose items either all pass or all fail: stop at the
   * first response that read items and kept none, before anything was kept, instead of reading
   * someone else's data to the end. The page is then empty with `filteredOut: true`.
   */
  stopWhenFilteredOut?: boolean;
}

export const readPage = async <T>(query: PageQuery<T>): Promise<Page<T> & { filteredOut: boolean }> => {
  const wanted = query.limit + 1;
  const collected: T[] = [];
  let bytes = 0;
  let overBudget = false;
  let startKey: Record<string, unknown> | undefined;
  do {
    const output = await documents().send(
      new QueryCommand({ ...query.input, Limit: wanted - collected.length, ExclusiveStartKey: startKey }),
    );
    const items = output.Items ?? [];
    if (
      query.stopWhenFilteredOut &&
      collected.length === 0 &&
      items.length === 0 &&
      (output.ScannedCount ?? 0) > 0
    )
      return { items: [], hasMore: false, filteredOut: true };
    for (const raw of items) {
      const item = query.parse(raw);
      if (query.sizeOf && query.maxBytes !== undefined) {
        bytes += query.sizeOf(item);
        // Always at least one item per page, however large, or the list could never advance.
        if (bytes > query.maxBytes && collected.length > 0) {
          overBudget = true;
          break;
        }
      }
      collected.push(item);
    }
    startKey = output.LastEvaluatedKey;
  } while (!overBudget && startKey && collected.length < wanted);
  const hasMore = overBudget || collected.length > query.limit;
  return { items: collected.slice(0, query.limit), hasMore, filteredOut: false };
};
