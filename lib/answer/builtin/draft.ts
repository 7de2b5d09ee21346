// The working state of the interpret stage: the parts of an intent a question states, and the
// draft they are built in (the resolver, the analysis, the items used so far, the focus).
import type { Filter, Group, Having, Intent, Metric, Order } from './intent.ts';
import type { Resolver } from './resolve.ts';
import type { Analysis, Item, Lexicon } from './types.ts';

export interface Parts {
  subject?: string;
  /** undefined: the question does not say (a follow-up keeps the previous one). */
  metric?: Metric | 'rows';
  group?: Group;
  having?: Having;
  order?: Order;
  limit?: number;
  ranking?: string;
  filters: Filter[];
  /** Whether the question set a period (a follow-up replaces the previous one). */
  period: boolean;
  /** The period's month or quarter was named without its year ("and in April?"). */
  yearless?: boolean;
}

/** One reading of a question while it is being built into parts. */
export interface Draft {
  resolver: Resolver;
  lexicon: Lexicon;
  analysis: Analysis;
  items: Item[];
  used: Set<number>;
  prior: Intent | undefined;
  at: (index: number | undefined) => Item | undefined;
  entityIndexes: number[];
  /** What the question is about: "which category has the most products" → category. */
  focusIndex: number | undefined;
  focus: Item | undefined;
  focusEntity: string | undefined;
  parts: Parts;
  /** The relation the rows come from, once known. */
  subject: string | undefined;
  /** A grouping the focus implies ("which customer has the most orders" → per customer). */
  groupFromFocus: Group | undefined;
}
