// Sending a chat message (spec endpoints 5 and 6): everything the answering flow needs loaded and
// checked before it runs (lib/answer/orchestrator.ts): the conversation (if it exists) with its
// latest messages, the database (from the body, or the conversation's), its schema index, the
// tenant and scope values for it, the personality and the engine. The checks, so that each error
// means one thing:
//   1. a pk_ key or an embed session naming another database → 403 before any lookup (nothing
//      about it is revealed); an embed session's tenant and personality are its token's
//      (lib/auth/embed-sessions.ts applyEmbedSession: another X-Tenant-Id is 403);
//   2. the conversation: it keeps the database and personality of its first message (docs/design.md
//      "Chat answers"); naming another one later is a 400 on that field; an id that does not
//      exist yet is created in the caller's scope when database_id is given, else 404
//      (docs/design.md "Unknown ids"); no id and no database_id is a 400 on body.database_id;
//   3. the database and the personality (loaded together): unknown or another organization's →
//      404 DATABASE_NOT_FOUND / NOT_FOUND_PERSONALITY; a pk_ key on a database that filters rows
//      by tenant → 403 EMBED_SESSION_REQUIRED, whatever headers it sends; a disabled database →
//      403; one without a schema index → 422 (nothing to answer from);
//   4. X-Tenant-Id and X-Scope-Id against the database (403 INVALID_TENANT_ID, …), which is why
//      the database is loaded first, by this code rather than by a middleware; then the
//      conversation's tenant (docs/design.md "A conversation keeps its tenant"): one whose first
//      answered message had another tenant, or one when this request has none, is 404 as another
//      scope's is, so none of its earlier questions, SQL or rows reach this request's context;
//   5. the engine (lib/answer/registry.ts) and, for model engines, the database's query
//      patterns (lib/store/patterns.ts).
// Lookups that do not depend on each other run at once.
import { applyEmbedSession, refuseDatabaseKey } from '#lib/auth/embed-sessions.ts';
import type { Principal } from '#lib/auth/principal.ts';
import { conversationTenantOf, rowScopeOf } from '#lib/auth/session-scope.ts';
import { resolveTenant } from '#lib/auth/tenant.ts';
import { invalidField, ServiceError } from '#lib/errors.ts';
import type { Lease } from '#lib/limits/limiter.ts';
import { logger } from '#lib/log.ts';
import { Timings } from '#lib/observability/timing.ts';
import {
  type ConversationOwner,
  type ConversationRecord,
  conversationKeeps,
  findConversation,
  isOwnedBy,
  tenantMatches,
} from '#lib/store/conversations.ts';
import { type DatabaseRecord, findDatabaseCached } from '#lib/store/databases.ts';
import { conversationMessagePage, type MessageRecord } from '#lib/store/messages.ts';
import { listPatterns } from '#lib/store/patterns.ts';
import { findPersonality } from '#lib/store/personalities.ts';
import { answerCatalogOf, answerGlossaryOf } from './catalog.ts';
import { answerQuestion } from './orchestrator.ts';
import { chooseEngine, engineFor } from './registry.ts';
import type { AnswerDependencies, AnswerOutcome, AnswerRequest } from './request.ts';
import { HISTORY_MESSAGES } from './turns.ts';

export interface ChatRequest {
  principal: Principal;
  scopeId: string | undefined;
  /** The raw X-Tenant-Id header. */
  tenantHeader: string | undefined;
  /** The conversation named by the request; undefined starts a new one under `newConversationId`. */
  conversationId: string | undefined;
  newConversationId: () => string;
  question: string;
  databaseId: string | undefined;
  personalityId: string | undefined;
  /** The function's remaining time (Lambda context): sets the answer's deadline (AnswerRequest.deadline). */
  remainingMs?: () => number;
  /** Where the request carried database_id and personality_id, for the fields errors name. */
  fields?: 'body' | 'query';
  /** The request's concurrency lease (the chain's limiter): given back with the stored answer. */
  lease?: Lease | undefined;
  now?: Date;
}

const forbiddenDatabase = (principal: Principal) =>
  new ServiceError('FORBIDDEN', {
    message: `This ${principal.credential === 'et' ? 'embed session' : 'database key'} cannot be used with another database`,
  });

const databaseRequired = (fields: 'body' | 'query') =>
  invalidField(
    `${fields}.database_id`,
    'database_id is required on the first message of a conversation',
    'REQUIRED',
  );

const checkKeyDatabase = (principal: Principal, databaseId: string | undefined): void => {
  const bound = principal.credential === 'pk' || principal.credential === 'et';
  if (bound && databaseId !== undefined && databaseId !== principal.databaseId)
    throw forbiddenDatabase(principal);
};

/** What a conversation keeps from its first chat message (docs/design.md "Chat answers"). */
type Kept = Pick<ConversationRecord, 'databaseId' | 'personalityId' | 'tenantKey'>;

interface KnownConversation {
  /** What the conversation keeps, if it is the caller's. */
  conversation: Kept | undefined;
  /** The id is another scope's or organization's, or being deleted: it cannot be created either. */
  taken: boolean;
  /** Its latest messages, oldest first. */
  history: MessageRecord[];
}

/**
 * What the conversation keeps, from its latest messages: each chat message carries the values its
 * append checked against the conversation and set on it (lib/store/messages.ts `kept`). Those
 * never change once set, so every message that carries one carries the conversation's.
 */
const keptByMessages = (messages: readonly MessageRecord[]): Kept | undefined => {
  const kept: Kept = {};
  for (const message of messages) {
    kept.databaseId ??= message.kept?.databaseId;
    kept.personalityId ??= message.kept?.personalityId;
    kept.tenantKey ??= message.kept?.tenantKey;
  }
  return kept.databaseId === undefined ? undefined : kept;
};

/**
 * The conversation and its latest messages in ONE Query of its partition (docs/design.md "Round
 * trips of a chat message"): every message carries its scope, so the query's filter checks the
 * conversation is the caller's, and what the conversation keeps comes with the chat messages.
 * The conversation item is read as well only when none of the latest messages is a chat
 * message (history appends, or messages stored before they carried it).
 */
const loadConversation = async (owner: ConversationOwner, id: string): Promise<KnownConversation> => {
  const page = await conversationMessagePage(owner.organizationId, owner, id, {
    limit: HISTORY_MESSAGES,
    order: 'desc',
  });
  // Another scope's messages: another scope's conversation.
  if (page.owned === false) return { conversation: undefined, taken: true, history: [] };
  // No message at all: the id is free, or its conversation is being deleted (messages go first),
  // which the question's append refuses as not found (its condition).
  if (page.owned === undefined) return { conversation: undefined, taken: false, history: [] };
  const history = [...page.items].reverse();
  const kept = keptByMessages(page.items);
  if (kept) {
    // An embed session reaches only the conversations of its own database.
    if (owner.databaseId !== undefined && kept.databaseId !== owner.databaseId)
      return { conversation: undefined, taken: true, history: [] };
    return { conversation: kept, taken: false, history };
  }
  const stored = await findConversation(owner.organizationId, id);
  const conversation = stored && isOwnedBy(stored, owner) ? stored : undefined;
  return { conversation, taken: stored !== undefined && !conversation, history: conversation ? history : [] };
};

const loadDatabase = async (organizationId: number, id: string): Promise<DatabaseRecord> => {
  const database = await findDatabaseCached(organizationId, id);
  if (!database) throw new ServiceError('DATABASE_NOT_FOUND', { message: `Database ${id} not found` });
  return database;
};

// A rejected promise, not a throw: it is built inside Promise.all beside other lookups, whose
// rejections Promise.all then handles too (a synchronous throw would leave them unhandled).
const personalityNotFound = async (id: string): Promise<never> => {
  throw new ServiceError('PERSONALITY_NOT_FOUND', { message: `Personality ${id} not found` });
};

/** What the conversation (when it exists) fixes, checked against what the body names. */
const settle = (
  request: ChatRequest,
  { conversation, taken }: Pick<KnownConversation, 'conversation' | 'taken'>,
): { databaseId: string; personalityId: string | undefined } => {
  // Refused here rather than by the append's condition, so that the stream refuses it before
  // its first byte (docs/design.md "Unknown ids": another scope's id is always 404).
  if (taken) throw new ServiceError('CONVERSATION_NOT_FOUND');
  if (!conversation) {
    if (request.databaseId === undefined) {
      // docs/design.md "Unknown ids": an id that does not exist yet needs database_id to be created.
      if (request.conversationId !== undefined) throw new ServiceError('CONVERSATION_NOT_FOUND');
      throw databaseRequired(request.fields ?? 'body');
    }
    return { databaseId: request.databaseId, personalityId: request.personalityId };
  }
  const databaseId = conversation.databaseId ?? request.databaseId;
  // A conversation made by history appends has no database until its first chat message.
  if (databaseId === undefined) throw databaseRequired(request.fields ?? 'body');
  if (request.databaseId !== undefined && request.databaseId !== databaseId) {
    throw conversationKeeps('databaseId', databaseId, request.fields);
  }
  const stored = conversation.personalityId;
  if (stored !== undefined && request.personalityId !== undefined && request.personalityId !== stored) {
    throw conversationKeeps('personalityId', stored, request.fields);
  }
  return { databaseId, personalityId: stored ?? request.personalityId };
};

/**
 * Loads and checks everything (see the top of this file): what answerQuestion runs on. Every
 * error of a request is thrown here, before anything is stored (the streaming endpoint relies on
 * it: these go out as plain error responses, before the stream starts).
 */
export const prepareChatAnswer = async (input: ChatRequest): Promise<AnswerRequest> => {
  const timings = new Timings();
  const request = applyEmbedSession(input.principal, input);
  const { principal, scopeId } = request;
  const { organizationId } = principal;
  checkKeyDatabase(principal, request.databaseId);
  // The conversation's address (lib/store/scopes.ts): scope and, on a tenant-filtered database, tenant.
  const owner: ConversationOwner = {
    organizationId,
    scopeId,
    tenant: conversationTenantOf(principal, request.tenantHeader),
    databaseId: principal.session?.databaseId,
  };

  const prepared = await timings.measure('load', async () => {
    // The conversation, the body's database and the body's personality do not depend on each other.
    const [known, bodyDatabase, bodyPersonality] = await Promise.all([
      request.conversationId === undefined
        ? { conversation: undefined, taken: false, history: [] }
        : loadConversation(owner, request.conversationId),
      request.databaseId === undefined ? undefined : findDatabaseCached(organizationId, request.databaseId),
      request.personalityId === undefined
        ? undefined
        : findPersonality(organizationId, request.personalityId),
    ]);
    const settled = settle(request, known);
    checkKeyDatabase(principal, settled.databaseId);
    const [database, personality] = await Promise.all([
      bodyDatabase?.id === settled.databaseId
        ? bodyDatabase
        : loadDatabase(organizationId, settled.databaseId),
      settled.personalityId === undefined
        ? undefined
        : settled.personalityId === request.personalityId
          ? (bodyPersonality ?? personalityNotFound(settled.personalityId))
          : findPersonality(organizationId, settled.personalityId),
    ]);
    if (settled.personalityId !== undefined && !personality) {
      // Only the conversation's own personality can be missing here (one the body names was
      // checked): it was removed after the conversation began, which goes on without it.
      logger.warn('the conversation’s personality no longer exists', {
        personalityId: settled.personalityId,
      });
    }
    refuseDatabaseKey(principal, database);
    if (database.status !== 'active') {
      throw new ServiceError('FORBIDDEN', { message: 'This database connection is disabled' });
    }
    const choice = chooseEngine(organizationId, personality);
    // The schema index (cached per version), the engine and, for model engines, the database's
    // query patterns are read at once; a client's mistake (the tenant header) is still reported
    // before a server's (an engine that is not configured).
    const engine = engineFor(choice);
    const patterns =
      choice.engine === 'builtin'
        ? Promise.resolve([])
        : listPatterns(database.id).then((all) => all.filter((pattern) => pattern.status === 'approved'));
    const glossary = answerGlossaryOf(database.id);
    for (const pending of [engine, patterns, glossary]) pending.catch(() => undefined);
    const catalog = await answerCatalogOf(database);
    if (!catalog) {
      const message = 'The database has not been indexed yet, so there is nothing to answer from';
      throw new ServiceError('CONNECTION_TEST_FAILED', {
        message,
        detail: 'SCHEMA_NOT_INDEXED',
        issues: [{ field: 'database_id', message, code: 'SCHEMA_NOT_INDEXED' }],
      });
    }
    const tenant = resolveTenant(
      database,
      catalog.full,
      request.tenantHeader,
      rowScopeOf(principal, scopeId),
    );
    if (known.conversation && !tenantMatches(known.conversation, tenant.tenant)) {
      throw new ServiceError('CONVERSATION_NOT_FOUND');
    }
    // The patterns are awaited once the first status is out (answerQuestion): they refuse nothing.
    const examples = patterns.then((approved) =>
      approved.map((pattern) => ({ question: pattern.question, sql: pattern.sql })),
    );
    examples.catch(() => undefined);
    return {
      known,
      database,
      catalog,
      tenant,
      personality,
      engine: await engine,
      choice,
      examples,
      glossary: await glossary,
    };
  });

  return {
    caller: { organizationId, scopeId, tenant: owner.tenant, userId: principal.userId },
    conversationId: request.conversationId ?? request.newConversationId(),
    question: request.question,
    database: prepared.database,
    catalog: prepared.catalog,
    tenant: prepared.tenant,
    history: prepared.known.history,
    givesDatabaseToEarlierMessages:
      prepared.known.conversation !== undefined && prepared.known.conversation.databaseId === undefined,
    personality: prepared.personality,
    engine: prepared.engine,
    model: prepared.choice.model,
    examples: prepared.examples,
    ...(prepared.glossary ? { glossary: prepared.glossary } : {}),
    timings,
    ...(request.now ? { now: request.now } : {}),
    ...(request.remainingMs ? { deadline: Date.now() + request.remainingMs() } : {}),
    ...(request.lease ? { lease: request.lease } : {}),
  };
};

/** Loads and checks everything (see the top of this file), then answers. */
export const sendChatMessage = async (
  request: ChatRequest,
  deps: AnswerDependencies = {},
): Promise<AnswerOutcome> => answerQuestion(await prepareChatAnswer(request), deps);
