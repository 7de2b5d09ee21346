// Questions that are not questions about the data: requests to change data or to step outside
// the engine's role (refused), requests for other tenants' rows (refused), SQL typed into the
// chat (refused: only generated queries run), greetings, thanks and "what can you do" (answered
// with the main tables in plain words). Checked before any schema matching.
import { DIALECTS } from '#lib/dialects/index.ts';
import type { ConversationalProposal, RefusedProposal } from '../engine.ts';
import { mainRelations } from './lexicon.ts';
import type { Lexicon } from './types.ts';
import { capitalize, joinAnd } from './words.ts';

const writeRequest = [
  /^\s*(?:please\s+|can you\s+|could you\s+|now\s+)?(?:delete|drop|truncate|update|insert|alter|create|grant|revoke|remove|modify|change|set|rename|add(?!\s+up)|wipe|erase|destroy|overwrite|replace|merge|reset|edit|cancel|refund|purge)\b/i,
  /\b(?:drop|truncate|alter|create)\s+(?:the\s+)?(?:table|database|schema|column|index|view|user|role)s?\b/i,
  /\bdelete\s+(?:from|all|every|the|my|our|these|those|them|it)\b/i,
  /\binsert\s+into\b/i,
  /\bupdate\s+[\w."`]+\s+set\b/i,
  /\b(?:update|change|modify|set|edit|increase|decrease|raise|lower)\s+(?:the\s+|all\s+|every\s+)?(?:price|prices|status|statuses|salary|salaries|amount|amounts|record|records|row|rows|value|values|data)\b/i,
  /\b(?:grant|revoke)\s+\w+\s+(?:on|to)\b/i,
];

const injection = [
  /\b(?:ignore|disregard|forget|override|bypass|skip)\b.{0,40}\b(?:instructions?|rules?|prompts?|guidelines|restrictions?|guard|filters?|polic(?:y|ies)|previous|above|prior)\b/i,
  /\b(?:system|developer|hidden|original)\s+(?:prompt|message|instructions?)\b/i,
  /\byour\s+(?:instructions|prompt|rules|configuration)\b/i,
  /\b(?:you are now|act as|pretend (?:to be|you are)|roleplay as|jailbreak|dan mode|developer mode)\b/i,
  /\b(?:reveal|print|show|repeat|leak)\b.{0,30}\b(?:prompt|instructions|api key|secret|password|credentials?)\b/i,
  /\b(?:sudo|admin mode|as an? (?:admin|administrator|superuser))\b/i,
];

/** Asking for secrets: credentials and payment card data, never answered whatever the schema holds. */
const secrets = [
  /\b(?:passwords?|password hashes?|passcodes?|cvv|cvc|security codes?)\b/i,
  /\b(?:full|complete|whole|entire|unmasked|long)\s+(?:credit\s+|debit\s+|payment\s+|bank\s+)?card\s+(?:numbers?|details|nos?)\b/i,
  /\b(?:credit|debit|payment|bank)\s+card\s+(?:numbers?|details|nos?)\b/i,
];

const rawSql = [
  /\bselect\b[\s\S]+\bfrom\b[\s\S]*(?:[*;=()]|\bwhere\b|\bjoin\b|\bgroup\s+by\b|\border\s+by\b|\blimit\b)/i,
  /^\s*select\s+\*/i,
  /;\s*\w/,
  /--|\/\*|\*\//,
  // Names only a probe of a system catalog uses: every dialect's (lib/dialects/<name>/index.ts).
  new RegExp(
    `\\b(?:${[...new Set(DIALECTS.flatMap((dialect) => dialect.catalogProbeWords)), 'sqlite_master'].join('|')})\\b`,
    'i',
  ),
  /\bunion\s+(?:all\s+)?select\b/i,
];

/** The words for a tenant, each as it is written in a pattern. */
const tenantTerms: Record<'tenant' | 'organization' | 'org', string> = {
  tenant: 'tenant',
  organization: 'organi[sz]ation',
  org: 'org',
};

/** Ways of asking for other tenants' rows, naming a tenant by the words in `terms`. */
const otherTenantPatterns = (terms: readonly string[]): RegExp[] => {
  const named =
    terms.length === 0
      ? []
      : [
          new RegExp(
            `\\b(?:other|another|different|every|each|any|all)\\s+(?:${terms.join('|')})s?(?:'s|s')?\\b`,
            'i',
          ),
          new RegExp(
            `\\b(?:across|for|of|from|between)\\s+(?:all\\s+)?(?:the\\s+)?(?:${terms.join('|')})s\\b`,
            'i',
          ),
          new RegExp(`\\b(?:${terms.join('|')})\\s*(?:id)?\\s*(?:=|is|#|no\\.?|number)?\\s*\\d+\\b`, 'i'),
        ];
  return [
    ...named,
    /\b(?:not\s+(?:just|only)\s+(?:mine|ours|my|our))\b/i,
    /\b(?:everyone|everybody)(?:'s|s')?\s+(?:data|orders|customers|records)\b/i,
  ];
};

/**
 * The patterns for a schema: a word that names a relation of the tenant's own data ("tenants" of a
 * lettings agency, rows carrying the tenant column) is about those rows, never about other
 * tenants ("rent paid by each tenant"). The SQL guard keeps every query to the caller's rows
 * either way; this only says so in words.
 */
const patternsByLexicon = new WeakMap<Lexicon, RegExp[]>();
const otherTenantsOf = (lexicon: Lexicon): RegExp[] => {
  let patterns = patternsByLexicon.get(lexicon);
  if (!patterns) {
    const dataWords = new Set(
      [...lexicon.relations.values()]
        // (Not a registry of the tenants themselves, keyed by the tenant column.)
        .filter(
          (relation) =>
            relation.relation.columns.some((column) => column.name === lexicon.tenantColumn) &&
            !relation.relation.primaryKey.includes(lexicon.tenantColumn ?? ''),
        )
        .map((relation) => relation.one.replace(/^organisation$/, 'organization')),
    );
    patterns = otherTenantPatterns(
      Object.entries(tenantTerms).flatMap(([word, term]) => (dataWords.has(word) ? [] : [term])),
    );
    patternsByLexicon.set(lexicon, patterns);
  }
  return patterns;
};

export const refusal = (question: string, lexicon: Lexicon): RefusedProposal | undefined => {
  if (injection.some((pattern) => pattern.test(question))) {
    return {
      kind: 'refused',
      reason: 'injection',
      message: 'I can only answer questions about the data in this database. I can’t change how I work.',
    };
  }
  if (writeRequest.some((pattern) => pattern.test(question))) {
    return {
      kind: 'refused',
      reason: 'write',
      message:
        'I can only read data, not change it: I never add, update or delete anything. Ask me a question about the data instead.',
    };
  }
  if (secrets.some((pattern) => pattern.test(question))) {
    return {
      kind: 'refused',
      message:
        'I don’t show passwords, payment card numbers or other secrets. Ask me about the rest of the data instead.',
    };
  }
  if (rawSql.some((pattern) => pattern.test(question))) {
    return {
      kind: 'refused',
      reason: 'raw_sql',
      message:
        'I don’t run SQL typed into the chat. Ask in plain words, for example “How many orders were placed last month?”.',
    };
  }
  const tenant = lexicon.tenantColumn;
  if (tenant !== undefined) {
    // The column's own name ("org_id = 2"), when it is distinctive enough not to be an ordinary word.
    const name = tenant.replace(/[^a-z0-9_]/gi, '');
    const named =
      (name.includes('_') || /tenant|org/i.test(name)) && new RegExp(`\\b${name}\\b`, 'i').test(question);
    if (named || otherTenantsOf(lexicon).some((pattern) => pattern.test(question))) {
      return {
        kind: 'refused',
        reason: 'other_tenant',
        message: 'I can only answer about your own organization’s data.',
      };
    }
  }
  return undefined;
};

const greeting =
  /^(?:hi|hello|hey|hiya|howdy|yo|good (?:morning|afternoon|evening|day)|greetings)\b[\s!.,]*(?:there|all|everyone)?[\s!.,]*$/i;
const thanks =
  /^(?:thanks?(?: you)?|thx|ty|cheers|great|perfect|awesome|ok(?:ay)?|cool|nice|got it)\b[\s\w!.,'’]{0,20}$/i;
const goodbye = /^(?:bye|goodbye|see you|that['’]?s all|that is all)\b[\s\w!.,'’]{0,20}$/i;
const capabilities =
  /^(?:help|\?|what (?:can|do) (?:you|i) (?:do|ask|know)|(?:what|how) (?:can|could) you help(?: me)?(?: with)?|what (?:can|could) i (?:use you for|ask about)|what can i ask(?: you)?|how (?:do|does) (?:this|it|you) work|who are you|what are you|what (?:data|tables|information|info)(?: do you have| is there| are there| is available| can you see| can i ask about)?|(?:which|what) tables?(?: are there| do you have| exist)?|show (?:me )?(?:the )?(?:tables|schema|data you have)|list (?:the )?tables|describe (?:the )?(?:data|database|schema))\b[\s\w?!.,]*$/i;

/** Example questions built from the catalog itself. */
const examples = (lexicon: Lexicon): string[] => {
  const main = mainRelations(lexicon, 20);
  // A relation that points at others and has a date is usually the activity table (orders).
  const dated = [...main]
    .filter((relation) => relation.primaryDate)
    .sort((a, b) => b.relation.foreignKeys.length - a.relation.foreignKeys.length)[0];
  const grouping = main
    .flatMap((relation) =>
      relation.columns
        .filter((column) => column.samples.length > 1 && !relation.labels.includes(column.name))
        .map((column) => ({ relation, column })),
    )
    .sort(
      (a, b) =>
        Number(/status|categor|country|type/.test(b.column.name)) -
        Number(/status|categor|country|type/.test(a.column.name)),
    )[0];
  const list: string[] = [];
  if (dated) list.push(`How many ${dated.other} were there last month?`);
  if (grouping) list.push(`${capitalize(grouping.relation.other)} per ${grouping.column.display}`);
  if (lexicon.revenue.kind === 'one') list.push('Revenue by month this year');
  return list;
};

export const conversation = (question: string, lexicon: Lexicon): ConversationalProposal | undefined => {
  const text = question.trim();
  // What it can answer about, with examples: worked out only for the questions that show it.
  const about = (): string => {
    const tables = mainRelations(lexicon).map((relation) => relation.other);
    return tables.length > 0
      ? `I can answer questions about ${joinAnd(tables)}.`
      : 'This database has no tables I can read yet.';
  };
  const tryThis = (): string => {
    const sample = examples(lexicon);
    return sample.length > 0 ? ` For example: ${sample.map((example) => `“${example}”`).join(', ')}.` : '';
  };
  if (greeting.test(text)) return { kind: 'conversational', message: `Hello! ${about()}${tryThis()}` };
  if (thanks.test(text))
    return { kind: 'conversational', message: 'You’re welcome! Ask me anything else about your data.' };
  if (goodbye.test(text))
    return {
      kind: 'conversational',
      message: 'Goodbye! Come back any time with a question about your data.',
    };
  if (capabilities.test(text)) {
    return {
      kind: 'conversational',
      message: `${about()} Ask in plain words: counts, lists with filters, totals and averages, breakdowns per group, top lists and periods like “last month”.${tryThis()}`,
    };
  }
  return undefined;
};
