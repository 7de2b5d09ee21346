// Every route of the API, each declared once (lib/http/route.ts says who reads them), in the
// order the OpenAPI document lists them. A new endpoint is an object in the routes file of the
// function that serves it, listed here (docs/design.md "Adding an endpoint").
import type { Route } from '#lib/http/route.ts';
import { createApiKey, deleteApiKey, listApiKeys } from './api-keys.ts';
import { getBranding, putBranding } from './branding.ts';
import { sendMessage } from './chat-message.ts';
import { getConversationHistory } from './conversation-history.ts';
import { sendConversationMessage } from './conversation-message.ts';
import { listConversations } from './conversations.ts';
import {
  createDatabase,
  deleteDatabase,
  getDatabase,
  getJob,
  indexDatabase,
  listDatabases,
  updateDatabase,
} from './databases.ts';
import { deleteConversation } from './delete-conversation.ts';
import { createEmbedSession } from './embed-sessions.ts';
import { listMessages } from './history.ts';
import { rateAnswer } from './message-feedback.ts';
import { getOpenApiDocument, getReferencePage } from './openapi.ts';
import {
  createPattern,
  deletePattern,
  getGlossary,
  listPatterns,
  putGlossary,
  updatePattern,
} from './patterns.ts';
import {
  createPersonality,
  deletePersonality,
  getPersonality,
  listPersonalities,
  updatePersonality,
} from './personalities.ts';
import { streamAnswer } from './stream.ts';
import { getUsage } from './usage.ts';

export const routes: readonly Route[] = [
  getBranding,
  listDatabases,
  listConversations,
  listMessages,
  getConversationHistory,
  rateAnswer,
  deleteConversation,
  sendMessage,
  sendConversationMessage,
  streamAnswer,
  createEmbedSession,
  getOpenApiDocument,
  getReferencePage,
  putBranding,
  createDatabase,
  getDatabase,
  updateDatabase,
  deleteDatabase,
  indexDatabase,
  getJob,
  listApiKeys,
  createApiKey,
  deleteApiKey,
  listPersonalities,
  createPersonality,
  getPersonality,
  updatePersonality,
  deletePersonality,
  listPatterns,
  createPattern,
  updatePattern,
  deletePattern,
  getGlossary,
  putGlossary,
  getUsage,
];
