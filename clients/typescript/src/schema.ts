// Generated from the OpenAPI document (clients/typescript/openapi.json) by openapi-typescript:
// `node clients/typescript/scripts/generate.ts`. Do not edit.

export interface paths {
    "/api/v1/branding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get branding
         * @description The organization's branding (colors, logos, widget theme): the fields set with `admin branding set` over the defaults.
         *
         *     Credentials: an organization key (sk_), a database key (pk_), a portal JWT, an embed session token (et_). Counts toward the plan limits.
         */
        get: operations["getBranding"];
        /**
         * Replace branding
         * @description Replaces the organization’s branding: the fields of GET /api/v1/branding, any subset of them (colours as #rgb or #rrggbb, logos as http(s) URLs); a field left out falls back to the default. Answers the branding as GET does.
         *
         *     Credentials: an organization key (sk_), a portal JWT. A change: a portal JWT needs the owner or admin role (a member reads only), an sk_ key must have been created with `manage` (other sk_ keys read only). Counts toward the plan limits.
         */
        put: operations["putBranding"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organization/databases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List connected databases
         * @description The organization's connected databases, oldest first, page by page (the Paginated response wrapper). A database is shown without its URL, host, user or password. Any sk_ key or portal token may read it (spec endpoint 10: the way to check that a database still exists).
         *
         *     Credentials: an organization key (sk_), a portal JWT. Counts toward the plan limits.
         */
        get: operations["listDatabases"];
        put?: never;
        /**
         * Connect a database
         * @description Connects a PostgreSQL or MySQL/MariaDB database. The connection is tested first: a failure is 422 VALIDATION_ERROR with a details entry code CONNECTION_FAILED (its message names the reason: COULD_NOT_CONNECT for every network failure, AUTH_FAILED, …), and nothing is stored or changed. Then the URL (or the parts, made into one) goes to the secret store, never to be returned, and the first indexing job is queued: follow it at GET /api/v1/organization/jobs/{job_id}. Indexing counts one operation of the plan’s indexing quota (429 INDEXING_QUOTA_EXCEEDED, details code QUOTA_EXCEEDED, “N of M used”, when none is left; nothing is stored or changed). A second database of the same name is 400 BUSINESS_DUPLICATE_ENTRY. `glossary` is checked against the new index by the job (a refused entry fails it).
         *
         *     Credentials: an organization key (sk_), a portal JWT. A change: a portal JWT needs the owner or admin role (a member reads only), an sk_ key must have been created with `manage` (other sk_ keys read only). Counts toward the plan limits.
         */
        post: operations["createDatabase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/chat/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List conversations
         * @description The scope's conversations, newest activity first, in cursor pages. Only conversations of the scope in X-Scope-Id are seen; a conversation of another scope or organization is 404, as an unknown one. With an embed session the scope is the token's (a token without one is 403, as a missing X-Scope-Id).
         *
         *     Credentials: an organization key (sk_), a portal JWT, an embed session token (et_). An sk_ key needs a plan with custom API access (Professional and up). Counts toward the plan limits.
         */
        get: operations["listConversations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/chat/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get messages
         * @description Messages of one conversation (`conversation_id`) or of the whole scope, newest first (`order=asc`: oldest first), in cursor pages. Only conversations of the scope in X-Scope-Id are seen; a conversation of another scope or organization is 404, as an unknown one. With an embed session the scope is the token's (a token without one is 403, as a missing X-Scope-Id).
         *
         *     Credentials: an organization key (sk_), a portal JWT, an embed session token (et_). An sk_ key needs a plan with custom API access (Professional and up). Counts toward the plan limits.
         */
        get: operations["listMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/chat/{conversation_id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the history of one conversation
         * @description The whole conversation, oldest first. Only conversations of the scope in X-Scope-Id are seen; a conversation of another scope or organization is 404, as an unknown one. With an embed session the scope is the token's (a token without one is 403, as a missing X-Scope-Id).
         *
         *     Credentials: an organization key (sk_), a portal JWT, an embed session token (et_). An sk_ key needs a plan with custom API access (Professional and up). Counts toward the plan limits.
         */
        get: operations["getConversationHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/chat/{conversation_id}/messages/{message_id}/feedback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rate an answer
         * @description A rating of one answer (`up` or `down`), with an optional comment and corrected SQL; a second rating of the same answer replaces the first. An up-voted SQL answer, or a corrected SQL that passes the SQL guard, becomes a candidate query pattern of the database for the question, which an admin approves (GET …/patterns?status=candidate, PATCH status). Only conversations of the scope in X-Scope-Id are seen; a conversation of another scope or organization is 404, as an unknown one. With an embed session the scope is the token's (a token without one is 403, as a missing X-Scope-Id).
         *
         *     Credentials: an organization key (sk_), a portal JWT, an embed session token (et_). An sk_ key needs a plan with custom API access (Professional and up). Counts toward the plan limits.
         */
        post: operations["rateAnswer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/chat/{conversation_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a conversation
         * @description Deletes the conversation and every message of it. A very long conversation that cannot be deleted within one request answers 503 with Retry-After; repeating the request finishes the delete. A portal token needs the owner or admin role (a member gets 403 FORBIDDEN). Only conversations of the scope in X-Scope-Id are seen; a conversation of another scope or organization is 404, as an unknown one. With an embed session the scope is the token's (a token without one is 403, as a missing X-Scope-Id).
         *
         *     Credentials: an organization key (sk_), a portal JWT, an embed session token (et_). An sk_ key needs a plan with custom API access (Professional and up). Counts toward the plan limits.
         */
        delete: operations["deleteConversation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/chat/message": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a chat message, or append a message to history
         * @description Two variants on one route, told apart by the body. A body with `message` is the chat variant (200): it answers the question in the conversation named by `conversation_id` or `session_id` (a session is a conversation), or in a new one, which needs `database_id`; it counts toward the message limits. A body with `role` appends a message to history (201) without answering: the rules of the history endpoints apply (an sk_ key with custom API access or a portal JWT, and X-Scope-Id); an id that does not exist yet creates the conversation. A body with both `message` and `role`, or neither, is 400.
         *
         *     Credentials: an organization key (sk_), a database key (pk_), a portal JWT, an embed session token (et_). The chat variant counts toward the message limits and the plan limits; the append variant toward the plan limits only. With an embed session, an answering request also counts toward its token scope's own limit (10 per minute).
         */
        post: operations["sendMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/chat/{conversation_id}/message": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a message to a given conversation
         * @description Answers the question in the conversation. An id that does not exist yet creates the conversation in the caller's scope, which needs `database_id`; a conversation keeps the database and personality of its first message.
         *
         *     Credentials: an organization key (sk_), a database key (pk_), a portal JWT, an embed session token (et_). Counts toward the message limits (30 per minute, 200 per hour) and the plan limits. With an embed session, an answering request also counts toward its token scope's own limit (10 per minute).
         */
        post: operations["sendConversationMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/chat/{conversation_id}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream an answer (server-sent events)
         * @description Answers `message` in an existing conversation (it supplies the database) as server-sent events (each parsed event is a StreamEvent), written as the answer is produced:
         *
         *     - `event: status` with `data:` StreamStatus: the step the answer is at (reading_question, writing_query, running_query, writing_answer), each as it starts, before the first piece;
         *     - `data: {"content": "…"}` (unnamed events, schema StreamChunk): the pieces of the answer, in order; their concatenation is the stored assistant message;
         *     - `event: done` with `data:` StreamDone: the last event of an answered stream;
         *     - `event: error` with `data:` ErrorEnvelope: a failure after the stream started (the stream then ends);
         *     - `: ping` comments keep an idle connection open.
         *
         *     Everything that can be refused (credentials, limits, an unknown conversation, a missing or empty `message`, the tenant) is refused before the stream starts, as an ordinary JSON error response with its status. A client that disconnects stops the answer.
         *
         *     Credentials: an organization key (sk_), a database key (pk_), a portal JWT, an embed session token (et_). Counts toward the message limits (30 per minute, 200 per hour) and the plan limits. With an embed session, an answering request also counts toward its token scope's own limit (10 per minute).
         */
        get: operations["streamAnswer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embed/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an embed session for the widget
         * @description Called by your server, after it has signed its own user in, to get a short-lived token the widget uses instead of a key: `Authorization: Bearer et_…`. The token names the database, the tenant (`tenant_id`: required when the database filters rows by tenant, validated like X-Tenant-Id against the tenant column, and refused when it does not) and the end-user scope (`scope_id`: required when the row policy says `scope_required`). Its tenant and scope are the only ones it can use: an X-Tenant-Id or X-Scope-Id that differs is 403. It may answer (both chat variants that answer, the stream), read branding, and read and delete its own scope's conversations. `origins` (1 to 10 `https://host[:port]`, `http://localhost` allowed) limits the pages that may use it; `ttl_seconds` is 60 to 3600 (default 900). Each token scope has its own message limit (10 per minute) inside the organization's. A database that filters rows by tenant refuses pk_ keys (403, details code EMBED_SESSION_REQUIRED).
         *
         *     Credentials: an organization key (sk_), a portal JWT. Counts toward the plan limits.
         */
        post: operations["createEmbedSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI document
         * @description The OpenAPI 3.1 document of the API. It needs no key and is the same for every caller: it describes the API, nothing of any organization. Not counted by the organization limits; API Gateway's throttling of the whole stage applies to it as to every route (429).
         *
         *     No credentials needed.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The API reference page
         * @description This document rendered for people (Redoc: search, every operation and schema, examples). The page carries its renderer and loads nothing but the document from the same base address. No key; not counted by the organization limits, only by API Gateway's throttling of the stage.
         *
         *     No credentials needed.
         */
        get: operations["getReferencePage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organization/databases/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a connected database
         * @description The database with where its schema index stands (`indexed_at`, `tables`) and its row policy; never its URL, host, user or password.
         *
         *     Credentials: an organization key (sk_), a portal JWT. Counts toward the plan limits.
         */
        get: operations["getDatabase"];
        put?: never;
        post?: never;
        /**
         * Delete a connected database
         * @description Deletes the database with its schema index, query patterns, glossary and connection secret, and revokes its database (pk_) keys. Later questions on it are 404 DATABASE_NOT_FOUND; its conversations stay readable.
         *
         *     Credentials: an organization key (sk_), a portal JWT. A change: a portal JWT needs the owner or admin role (a member reads only), an sk_ key must have been created with `manage` (other sk_ keys read only). Counts toward the plan limits.
         */
        delete: operations["deleteDatabase"];
        options?: never;
        head?: never;
        /**
         * Change a connected database
         * @description Changes the name, the connection, the row policy or the column descriptions. The connection is tested first: a failure is 422 VALIDATION_ERROR with a details entry code CONNECTION_FAILED (its message names the reason: COULD_NOT_CONNECT for every network failure, AUTH_FAILED, …), and nothing is stored or changed. A changed connection, row policy or set of descriptions queues a re-index (`job`); until it succeeds, answers use the previous index without its sample values. Indexing counts one operation of the plan’s indexing quota (429 INDEXING_QUOTA_EXCEEDED, details code QUOTA_EXCEEDED, “N of M used”, when none is left; nothing is stored or changed).
         *
         *     Credentials: an organization key (sk_), a portal JWT. A change: a portal JWT needs the owner or admin role (a member reads only), an sk_ key must have been created with `manage` (other sk_ keys read only). Counts toward the plan limits.
         */
        patch: operations["updateDatabase"];
        trace?: never;
    };
    "/api/v1/organization/databases/{id}/index": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-index a connected database
         * @description Queues a background job that reads the database’s schema again (tables, views, columns, keys, row estimates, sample values) and answers 202 with it. Indexing counts one operation of the plan’s indexing quota (429 INDEXING_QUOTA_EXCEEDED, details code QUOTA_EXCEEDED, “N of M used”, when none is left; nothing is stored or changed). A failed job leaves the previous index in place.
         *
         *     Credentials: an organization key (sk_), a portal JWT. A change: a portal JWT needs the owner or admin role (a member reads only), an sk_ key must have been created with `manage` (other sk_ keys read only). Counts toward the plan limits.
         */
        post: operations["indexDatabase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organization/jobs/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow a job
         * @description An indexing job: `status` queued → running → succeeded | failed, `progress` (relations read of all) while it runs, `error` when it failed. A job that never finished is failed (JOB_TIMED_OUT) once older than the indexer could run. Jobs are kept 30 days.
         *
         *     Credentials: an organization key (sk_), a portal JWT. Counts toward the plan limits.
         */
        get: operations["getJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organization/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys
         * @description The organization’s keys that work, oldest first, page by page: prefix, kind, database, origins, manage, created and last used (to within 10 minutes). Never a key’s value.
         *
         *     Credentials: an organization key (sk_), a portal JWT. Counts toward the plan limits.
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Create an API key
         * @description An organization key (`sk`, for your servers; `manage: true` lets it change the organization here) or a database key (`pk`, for the widget: `database_id` required, `origins` optional). The key’s value is in this answer only.
         *
         *     Credentials: an organization key (sk_), a portal JWT. A change: a portal JWT needs the owner or admin role (a member reads only), an sk_ key must have been created with `manage` (other sk_ keys read only). Counts toward the plan limits.
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organization/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an API key
         * @description Revokes the key: its next request is 401. (A container of the service that resolved the key in the last 60 seconds may accept it until its key cache expires; the one that deleted it refuses it at once.)
         *
         *     Credentials: an organization key (sk_), a portal JWT. A change: a portal JWT needs the owner or admin role (a member reads only), an sk_ key must have been created with `manage` (other sk_ keys read only). Counts toward the plan limits.
         */
        delete: operations["deleteApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organization/personalities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List personalities
         * @description The organization’s AI personalities, oldest first, page by page.
         *
         *     Credentials: an organization key (sk_), a portal JWT. Counts toward the plan limits.
         */
        get: operations["listPersonalities"];
        put?: never;
        /**
         * Create a personality
         * @description An AI personality: a name, instructions for the answering engine (tone, focus) and optionally the language it answers in. Name it with `personality_id` in chat messages.
         *
         *     Credentials: an organization key (sk_), a portal JWT. A change: a portal JWT needs the owner or admin role (a member reads only), an sk_ key must have been created with `manage` (other sk_ keys read only). Counts toward the plan limits.
         */
        post: operations["createPersonality"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organization/personalities/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a personality
         * @description One personality.
         *
         *     Credentials: an organization key (sk_), a portal JWT. Counts toward the plan limits.
         */
        get: operations["getPersonality"];
        put?: never;
        post?: never;
        /**
         * Delete a personality
         * @description Deletes the personality. Conversations that began with it go on without it; a message that names it is 404.
         *
         *     Credentials: an organization key (sk_), a portal JWT. A change: a portal JWT needs the owner or admin role (a member reads only), an sk_ key must have been created with `manage` (other sk_ keys read only). Counts toward the plan limits.
         */
        delete: operations["deletePersonality"];
        options?: never;
        head?: never;
        /**
         * Change a personality
         * @description Changes the name, the instructions or the language (`null` clears it).
         *
         *     Credentials: an organization key (sk_), a portal JWT. A change: a portal JWT needs the owner or admin role (a member reads only), an sk_ key must have been created with `manage` (other sk_ keys read only). Counts toward the plan limits.
         */
        patch: operations["updatePersonality"];
        trace?: never;
    };
    "/api/v1/organization/databases/{id}/patterns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List query patterns
         * @description The database’s question → SQL pairs, oldest first, page by page: `status=candidate` lists the candidates an answer’s feedback proposed, for an admin to approve; `status=approved` those in use.
         *
         *     Credentials: an organization key (sk_), a portal JWT. Counts toward the plan limits.
         */
        get: operations["listPatterns"];
        put?: never;
        /**
         * Add a query pattern
         * @description An approved question and the SQL that answers it, shown to the model engines as an example. The SQL must pass the database’s SQL guard (against its schema index and row policy): a refused query is 400 VALIDATION_ERROR whose details entry (field `body.sql`) carries the guard’s code (NOT_SELECT, FUNCTION_NOT_ALLOWED, RELATION_NOT_ALLOWED, …). A second pattern for the same question is 400 BUSINESS_DUPLICATE_ENTRY; a database not indexed yet is 422 (details code SCHEMA_NOT_INDEXED). At most 100 per database.
         *
         *     Credentials: an organization key (sk_), a portal JWT. A change: a portal JWT needs the owner or admin role (a member reads only), an sk_ key must have been created with `manage` (other sk_ keys read only). Counts toward the plan limits.
         */
        post: operations["createPattern"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organization/databases/{id}/patterns/{pattern_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a query pattern
         * @description Deletes the pattern.
         *
         *     Credentials: an organization key (sk_), a portal JWT. A change: a portal JWT needs the owner or admin role (a member reads only), an sk_ key must have been created with `manage` (other sk_ keys read only). Counts toward the plan limits.
         */
        delete: operations["deletePattern"];
        options?: never;
        head?: never;
        /**
         * Change a query pattern
         * @description Changes the question, the SQL (checked by the guard again), the notes (`null` clears them) or the status: `approved` approves a candidate (its SQL is checked by the guard again), `candidate` sets a pattern aside.
         *
         *     Credentials: an organization key (sk_), a portal JWT. A change: a portal JWT needs the owner or admin role (a member reads only), an sk_ key must have been created with `manage` (other sk_ keys read only). Counts toward the plan limits.
         */
        patch: operations["updatePattern"];
        trace?: never;
    };
    "/api/v1/organization/databases/{id}/glossary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the glossary
         * @description The database’s glossary (empty maps when none was saved).
         *
         *     Credentials: an organization key (sk_), a portal JWT. Counts toward the plan limits.
         */
        get: operations["getGlossary"];
        /**
         * Replace the glossary
         * @description Synonyms (a word → a table or table.column), metrics and named filters (a word → an SQL expression over qualified columns), used by every engine. Each metric and filter must pass the database’s SQL guard and each synonym name a table or column of its index: a refused entry is 400 naming it (details field and code), and nothing is saved. A database not indexed yet is 422 (SCHEMA_NOT_INDEXED).
         *
         *     Credentials: an organization key (sk_), a portal JWT. A change: a portal JWT needs the owner or admin role (a member reads only), an sk_ key must have been created with `manage` (other sk_ keys read only). Counts toward the plan limits.
         */
        put: operations["putGlossary"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organization/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get usage
         * @description The plan, the current minute and hour of the plan’s request limits, the monthly API quota, the indexing quota of this calendar month (UTC) and this month’s answers by who answered (builtin engine, model engine, query pattern, shared SQL cache).
         *
         *     Credentials: an organization key (sk_), a portal JWT. Counts toward the plan limits.
         */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description The error envelope of every error response */
        ErrorEnvelope: {
            /**
             * @description shape A: always false
             * @constant
             */
            success: false;
            /** @description shape A error object */
            error: {
                /** @description shape A code, e.g. VALIDATION_ERROR, NOT_FOUND */
                code: string;
                message: string;
                /** @description a detail code or sentence; the message when none */
                details: string;
            };
            /** @description shape B code, e.g. AUTH_INVALID_CREDENTIALS */
            error_code: string;
            message: string;
            /** @description the HTTP status */
            status_code: number;
            /** @description shape B details: one entry per field in error, often empty */
            details: {
                /** @description e.g. query.limit, body.database_id, X-Tenant-Id */
                field: string;
                message: string;
                code: string;
            }[];
            /** @description equals the X-Request-ID response header */
            trace_id: string;
            /** Format: date-time */
            timestamp: string;
        };
        /** @description The organization's branding: stored fields over the defaults */
        Branding: {
            colors: {
                /** @description hex color, #rgb or #rrggbb */
                primary: string;
                /** @description hex color, #rgb or #rrggbb */
                secondary: string;
                /** @description hex color, #rgb or #rrggbb */
                accent: string;
                /** @description hex color, #rgb or #rrggbb */
                text_primary: string;
                /** @description hex color, #rgb or #rrggbb */
                text_secondary: string;
            };
            /** Format: uri */
            logo_url: string;
            /** Format: uri */
            logo_dark_url: string;
            widget_theme: {
                /** @description bottom-right, bottom-left, top-right or top-left */
                position: string;
                greeting_message: string;
                placeholder_text: string;
                /** @description hex color, #rgb or #rrggbb */
                header_color: string;
            };
            /** @description hides the vendor's branding mark */
            hide_dialektai_branding: boolean;
        };
        /** @description Branding of the organization */
        BrandingResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Branding"];
        };
        /** @description A connected database: never its URL, host, user or password */
        Database: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @enum {string} */
            engine: "postgres" | "mysql" | "pglite";
            /** @enum {string} */
            status: "active" | "disabled";
            /** @description true: X-Tenant-Id is required and every query is filtered by tenant */
            requires_organization_scoping: boolean;
            tenant_filter_column: string | null;
            scope_filter_column: string | null;
            /** Format: date-time */
            created_at: string;
        };
        Pagination: {
            current_page: number;
            page_size: number;
            total_items: number;
            total_pages: number;
            has_next: boolean;
            has_previous: boolean;
        };
        /** @description One page of the organization's connected databases, oldest first */
        DatabasesPage: {
            /** @constant */
            success: true;
            data: components["schemas"]["Database"][];
            pagination: components["schemas"]["Pagination"];
        };
        Conversation: {
            /** Format: uuid */
            id: string;
            organizationId: number;
            /** @description the X-Scope-Id the conversation belongs to */
            scopeId: string | null;
            /** @description the tenant of its address (X-Tenant-Id, or the embed session’s tenant) on a database that filters rows by tenant; null otherwise */
            tenantId: string | null;
            /** @description the first user message, cut to 80 characters; "New conversation" until one exists */
            title: string;
            /** Format: date-time */
            lastMessageAt: string;
            messageCount: number;
            /** Format: date-time */
            createdAt: string;
        };
        ConversationsPage: {
            conversations: components["schemas"]["Conversation"][];
            /** @description present only when hasMore is true: send it back unchanged for the next page */
            cursor?: string;
            hasMore: boolean;
        };
        /** @description A page of the scope's conversations, newest activity first */
        ConversationsResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["ConversationsPage"];
        };
        Message: {
            /**
             * Format: uuid
             * @description equals the message_id returned by append
             */
            id: string;
            content: string;
            /** @enum {string} */
            sender: "USER" | "ASSISTANT" | "SYSTEM" | "TOOL";
            /** Format: date-time */
            timestamp: string;
            /** @constant */
            type: "text";
            /** @description as appended ({} when none); answers carry query_type and execution_time_ms */
            metadata: {
                [key: string]: unknown;
            };
        };
        MessagesPage: {
            messages: components["schemas"]["Message"][];
            /** @description present only when hasMore is true: send it back unchanged for the next page */
            cursor?: string;
            hasMore: boolean;
        };
        /** @description A page of messages of one conversation or of the whole scope */
        MessagesResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["MessagesPage"];
        };
        ConversationHistory: {
            /** Format: uuid */
            conversation_id: string;
            messages: {
                /** @enum {string} */
                role: "USER" | "ASSISTANT" | "SYSTEM" | "TOOL";
                content: string;
                /** Format: date-time */
                timestamp: string;
            }[];
            organization_id: number;
            /** @description the portal user (JWT sub) who created the conversation; 0 for API keys */
            user_id: number;
            /** @description true when earlier messages were left out: at most the latest 1,000 messages (HISTORY_MAX_MESSAGES) are returned; GET /chat/history pages through all of them */
            truncated: boolean;
        };
        /** @description The conversation, oldest first (its latest messages when `truncated`) */
        ConversationHistoryResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["ConversationHistory"];
        };
        DeleteResult: {
            message: string;
        };
        /** @description The conversation and all its messages are deleted */
        DeleteResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["DeleteResult"];
        };
        AppendResult: {
            /** Format: uuid */
            message_id: string;
            /** Format: uuid */
            conversation_id: string;
            /** Format: date-time */
            created_at: string;
        };
        /** @description The message is appended (201) */
        AppendResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["AppendResult"];
            message: string;
        };
        /**
         * @description sql: a query ran; clarification: the question needs to be more precise; conversational: greeting, help or capabilities; refused: the request cannot be answered safely
         * @enum {string}
         */
        QueryType: "sql" | "clarification" | "conversational" | "refused";
        /** @description An answer, in the superset of both documented response shapes */
        ChatAnswer: {
            /** @description the answer in words */
            message: string;
            /** Format: uuid */
            conversation_id: string;
            /**
             * Format: uuid
             * @description a session is a conversation: always equals conversation_id
             */
            session_id: string;
            /** @description ["database"] when rows came from the database, [] otherwise */
            sources: string[];
            query_type: components["schemas"]["QueryType"];
            execution_time_ms: number;
            /** @description result rows (at most 100); keys depend on the query */
            results: {
                [key: string]: unknown;
            }[];
            row_count: number;
            /** @description true when more rows existed than results holds */
            results_truncated: boolean;
            /** @description the query as generated, before the tenant rewrite; null when none was proposed */
            sql: string | null;
            /** @description what the engine understood, in plain words ("Counting orders with status 'cancelled'"), so that a misreading can be caught; null when no query was proposed */
            interpretation: string | null;
            /**
             * Format: uuid
             * @description the stored answer, as history lists it; feedback names it
             */
            message_id: string;
            /**
             * @description who answered: the builtin engine, an approved query pattern, the shared SQL cache, or a model
             * @enum {string}
             */
            answered_by: "builtin" | "pattern" | "cache" | "model";
            /** @description a Vega-Lite v5 spec of the rows chosen by rules (time and measure: line; up to 20 categories: bar; two measures: point), values inline; null when no chart fits */
            chart: {
                /** @constant */
                $schema: "https://vega.github.io/schema/vega-lite/v5.json";
                title: string;
                description: string;
                data: {
                    values: {
                        [key: string]: unknown;
                    }[];
                };
                mark: {
                    /** @enum {string} */
                    type: "line" | "bar" | "point";
                };
                encoding: {
                    x: {
                        field: string;
                        /** @enum {string} */
                        type: "temporal" | "ordinal" | "quantitative" | "nominal";
                        title: string;
                        /** @enum {string} */
                        sort?: "ascending" | "-y";
                    };
                    y: {
                        field: string;
                        /** @enum {string} */
                        type: "temporal" | "ordinal" | "quantitative" | "nominal";
                        title: string;
                        /** @enum {string} */
                        sort?: "ascending" | "-y";
                    };
                };
            } | null;
            /** @description up to three questions the builtin engine answers on this database, as buttons to ask them. After an answer: follow-up questions. After a clarification (query_type `clarification`) that found readings of the question: the likeliest readings, best first, each a complete question ("Did you mean …"); asking one answers exactly that reading */
            suggestions: string[];
        };
        /** @description The answer */
        ChatAnswerResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["ChatAnswer"];
        };
        StreamStatus: {
            /** @enum {string} */
            step: "reading_question" | "writing_query" | "running_query" | "writing_answer";
            message: string;
        };
        StreamChunk: {
            content: string;
        };
        StreamDone: {
            /** Format: uuid */
            conversation_id: string;
            sources: string[];
            query_type: components["schemas"]["QueryType"];
            execution_time_ms: number;
            row_count: number;
            /** @description result rows (at most 100); keys depend on the query */
            results: {
                [key: string]: unknown;
            }[];
            /** @description true when more rows existed than results holds */
            results_truncated: boolean;
            /** @description what the engine understood, in plain words ("Counting orders with status 'cancelled'"), so that a misreading can be caught; null when no query was proposed */
            interpretation: string | null;
            /**
             * Format: uuid
             * @description the stored answer, as history lists it; feedback names it
             */
            message_id: string;
            /**
             * @description who answered: the builtin engine, an approved query pattern, the shared SQL cache, or a model
             * @enum {string}
             */
            answered_by: "builtin" | "pattern" | "cache" | "model";
            /** @description a Vega-Lite v5 spec of the rows chosen by rules (time and measure: line; up to 20 categories: bar; two measures: point), values inline; null when no chart fits */
            chart: {
                /** @constant */
                $schema: "https://vega.github.io/schema/vega-lite/v5.json";
                title: string;
                description: string;
                data: {
                    values: {
                        [key: string]: unknown;
                    }[];
                };
                mark: {
                    /** @enum {string} */
                    type: "line" | "bar" | "point";
                };
                encoding: {
                    x: {
                        field: string;
                        /** @enum {string} */
                        type: "temporal" | "ordinal" | "quantitative" | "nominal";
                        title: string;
                        /** @enum {string} */
                        sort?: "ascending" | "-y";
                    };
                    y: {
                        field: string;
                        /** @enum {string} */
                        type: "temporal" | "ordinal" | "quantitative" | "nominal";
                        title: string;
                        /** @enum {string} */
                        sort?: "ascending" | "-y";
                    };
                };
            } | null;
            /** @description up to three questions the builtin engine answers on this database, as buttons to ask them. After an answer: follow-up questions. After a clarification (query_type `clarification`) that found readings of the question: the likeliest readings, best first, each a complete question ("Did you mean …"); asking one answers exactly that reading */
            suggestions: string[];
        };
        /** @description One event of an answer stream: `status` with the step the answer is at (before the first piece), `message` (unnamed on the wire) with a piece of the answer, `done` with the answer, `error` with a failure after the stream started */
        StreamEvent: {
            /** @constant */
            event: "status";
            data: components["schemas"]["StreamStatus"];
        } | {
            /** @constant */
            event: "message";
            data: components["schemas"]["StreamChunk"];
        } | {
            /** @constant */
            event: "done";
            data: components["schemas"]["StreamDone"];
        } | {
            /** @constant */
            event: "error";
            data: components["schemas"]["ErrorEnvelope"];
        };
        /** @description This document (OpenAPI 3.1) */
        OpenApiDocument: {
            openapi: string;
            info: {
                title: string;
                version: string;
            };
        };
        ChatMessageRequest: {
            /** @description message must not be empty; message must be at most 4,000 characters */
            message: string;
            database_id?: string | null;
            personality_id?: string | null;
            session_id?: string | null;
            conversation_id?: string | null;
        };
        AppendMessageRequest: {
            /** Format: uuid */
            conversation_id: string;
            /** @enum {string} */
            role: "user" | "assistant" | "system" | "tool";
            content: string;
            /** @description metadata must be at most 16384 bytes as JSON */
            metadata?: Record<string, never> | null;
        };
        ConversationMessageRequest: {
            /** @description message must not be empty; message must be at most 4,000 characters */
            message: string;
            database_id?: string | null;
            personality_id?: string | null;
        };
        /** @description A short-lived embed-session token for one database, tenant and scope */
        EmbedSession: {
            /** @description send as `Authorization: Bearer et_…` from the page (the widget option getSessionToken) */
            token: string;
            /**
             * Format: date-time
             * @description when the token stops working; ask for a new one before
             */
            expires_at: string;
            /** Format: uuid */
            database_id: string;
            /** @description the tenant every answer is filtered by; null on a database without scoping */
            tenant_id: string | null;
            /** @description the end-user scope of its conversations; null: it answers but reads no history */
            scope_id: string | null;
        };
        /** @description The embed session is created (201) */
        EmbedSessionResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["EmbedSession"];
        };
        EmbedSessionRequest: {
            /** Format: uuid */
            database_id: string;
            tenant_id?: string | number;
            scope_id?: string | number;
            origins?: string[];
            /** @default 900 */
            ttl_seconds: number;
            /** Format: uuid */
            personality_id?: string;
        };
        FeedbackResult: {
            /** Format: uuid */
            message_id: string;
            /** @enum {string} */
            rating: "up" | "down";
            comment: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description the candidate query pattern proposed for the answer’s question (an up-vote of a SQL answer, or a corrected_sql), for an admin to approve; null when none */
            candidate_pattern_id: string | null;
        };
        /** @description The rating is stored (a second one replaces it) */
        FeedbackResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["FeedbackResult"];
        };
        /** @description The indexing job: follow it at GET /api/v1/organization/jobs/{job_id} */
        JobSummary: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "failed";
        };
        /** @description The connected database (201): its connection was tested; its first indexing job is queued */
        DatabaseCreated: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @enum {string} */
            engine: "postgres" | "mysql" | "pglite";
            /** @enum {string} */
            status: "active" | "disabled";
            /** @description true: X-Tenant-Id is required and every query is filtered by tenant */
            requires_organization_scoping: boolean;
            tenant_filter_column: string | null;
            scope_filter_column: string | null;
            /** Format: date-time */
            created_at: string;
            job: components["schemas"]["JobSummary"];
        };
        /** @description The database is connected (201) */
        DatabaseCreatedResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["DatabaseCreated"];
        };
        /** @description The row policy: default tenant and scope columns, and per-table overrides */
        RowPolicy: {
            tenant_column?: string;
            scope_column?: string;
            scope_required?: boolean;
            tables?: {
                [key: string]: {
                    tenant_column?: string;
                    scope_column?: string;
                    shared?: boolean;
                };
            };
        };
        /** @description A connected database with its index and row policy: never its URL, host, user or password */
        DatabaseDetail: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @enum {string} */
            engine: "postgres" | "mysql" | "pglite";
            /** @enum {string} */
            status: "active" | "disabled";
            /** @description true: X-Tenant-Id is required and every query is filtered by tenant */
            requires_organization_scoping: boolean;
            tenant_filter_column: string | null;
            scope_filter_column: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description when the current schema index was read; null: never */
            indexed_at: string | null;
            /** @description relations in the current schema index; null: not indexed */
            tables: number | null;
            policy: components["schemas"]["RowPolicy"];
            /**
             * @description what may reach a model provider: rows (sample values and result rows), aggregates (result rows only when every column is an aggregate), schema_only (neither; the service writes the answer)
             * @enum {string}
             */
            model_data: "rows" | "aggregates" | "schema_only";
            /** @description columns never sent to a model provider (table.column or schema.table.column) */
            redacted_columns: string[];
            /** Format: date-time */
            updated_at: string;
        };
        /** @description The database */
        DatabaseDetailResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["DatabaseDetail"];
        };
        /** @description The database as changed */
        DatabaseUpdated: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @enum {string} */
            engine: "postgres" | "mysql" | "pglite";
            /** @enum {string} */
            status: "active" | "disabled";
            /** @description true: X-Tenant-Id is required and every query is filtered by tenant */
            requires_organization_scoping: boolean;
            tenant_filter_column: string | null;
            scope_filter_column: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description when the current schema index was read; null: never */
            indexed_at: string | null;
            /** @description relations in the current schema index; null: not indexed */
            tables: number | null;
            policy: components["schemas"]["RowPolicy"];
            /**
             * @description what may reach a model provider: rows (sample values and result rows), aggregates (result rows only when every column is an aggregate), schema_only (neither; the service writes the answer)
             * @enum {string}
             */
            model_data: "rows" | "aggregates" | "schema_only";
            /** @description columns never sent to a model provider (table.column or schema.table.column) */
            redacted_columns: string[];
            /** Format: date-time */
            updated_at: string;
            /** @description the re-index a changed connection, row policy or descriptions queued; null when none */
            job: components["schemas"]["JobSummary"] | null;
        };
        /** @description The database is changed */
        DatabaseUpdatedResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["DatabaseUpdated"];
        };
        /** @description A background indexing job */
        Job: {
            /** Format: uuid */
            id: string;
            /** @constant */
            kind: "index";
            /** Format: uuid */
            database_id: string;
            /**
             * @description queued → running → succeeded | failed; a failed job leaves the previous index in place
             * @enum {string}
             */
            status: "queued" | "running" | "succeeded" | "failed";
            progress: {
                tables_done: number;
                /** @description 0 until the job has listed the relations */
                tables_total: number;
            };
            /** @description why a failed job failed, e.g. CONNECTION_FAILED or JOB_TIMED_OUT; null otherwise */
            error: {
                code: string;
                message: string;
            } | null;
            /** Format: date-time */
            created_at: string;
            started_at: string | null;
            finished_at: string | null;
        };
        /** @description The job */
        JobResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Job"];
        };
        /** @description The job is queued (202) */
        JobQueuedResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Job"];
        };
        /** @description An API key, without its value */
        ApiKey: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            kind: "sk" | "pk";
            name: string | null;
            /** @description the kind and the last four characters, e.g. sk_…a1b2 */
            prefix: string;
            /** @description pk keys: the database the key is bound to */
            database_id: string | null;
            /** @description pk keys: allowed page origins ([] = any) */
            origins: string[];
            /** @description sk keys: may change the organization (the control plane) */
            manage: boolean;
            /** Format: date-time */
            created_at: string;
            /** @description the last request made with the key, to within 10 minutes; null: never used */
            last_used_at: string | null;
        };
        /** @description One page of the organization's keys, oldest first */
        ApiKeysPage: {
            /** @constant */
            success: true;
            data: components["schemas"]["ApiKey"][];
            pagination: components["schemas"]["Pagination"];
        };
        /** @description A new API key with its value, shown once */
        ApiKeyCreated: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            kind: "sk" | "pk";
            name: string | null;
            /** @description the kind and the last four characters, e.g. sk_…a1b2 */
            prefix: string;
            /** @description pk keys: the database the key is bound to */
            database_id: string | null;
            /** @description pk keys: allowed page origins ([] = any) */
            origins: string[];
            /** @description sk keys: may change the organization (the control plane) */
            manage: boolean;
            /** Format: date-time */
            created_at: string;
            /** @description the last request made with the key, to within 10 minutes; null: never used */
            last_used_at: string | null;
            /** @description the key itself: shown in this answer only */
            key: string;
        };
        /** @description The key is created (201): keep its value now */
        ApiKeyCreatedResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["ApiKeyCreated"];
        };
        /** @description An AI personality, named by personality_id in chat messages */
        Personality: {
            /** Format: uuid */
            id: string;
            name: string;
            instructions: string | null;
            /** @description a language tag such as en or de-CH */
            language: string | null;
            /** @description set by an operator; null: the organization’s engine */
            engine: string | null;
            model: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description The personality */
        PersonalityResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Personality"];
        };
        /** @description One page of the organization's personalities */
        PersonalitiesPage: {
            /** @constant */
            success: true;
            data: components["schemas"]["Personality"][];
            pagination: components["schemas"]["Pagination"];
        };
        /** @description A question → SQL pair of one database, approved or a candidate */
        QueryPattern: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            database_id: string;
            question: string;
            /** @description as given; the SQL guard accepted it when it was saved */
            sql: string;
            notes: string | null;
            /**
             * @description approved: used by the answering engines; candidate: proposed by an answer’s feedback, used once approved
             * @enum {string}
             */
            status: "approved" | "candidate";
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @description The query pattern */
        QueryPatternResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["QueryPattern"];
        };
        /** @description One page of the database's query patterns, oldest first */
        QueryPatternsPage: {
            /** @constant */
            success: true;
            data: components["schemas"]["QueryPattern"][];
            pagination: components["schemas"]["Pagination"];
        };
        /** @description Synonyms (word → table or table.column), metrics and named filters (word → SQL expression) */
        Glossary: {
            synonyms: {
                [key: string]: string;
            };
            metrics: {
                [key: string]: string;
            };
            filters: {
                [key: string]: string;
            };
        };
        /** @description The database's glossary */
        GlossaryResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Glossary"];
        };
        /** @description The organization's plan, current windows and quotas */
        Usage: {
            /** @enum {string} */
            plan: "free" | "starter" | "professional" | "business" | "enterprise";
            rate: {
                minute: {
                    used: number;
                    limit: number;
                    /** Format: date-time */
                    resets_at: string;
                };
                hour: {
                    used: number;
                    limit: number;
                    /** Format: date-time */
                    resets_at: string;
                };
            };
            /** @description the monthly API quota (calendar month, UTC) */
            monthly: {
                used: number;
                limit: number;
                /** Format: date-time */
                resets_at: string;
            };
            /** @description indexing operations this calendar month (UTC) */
            indexing: {
                used: number;
                limit: number;
                /** Format: date-time */
                resets_at: string;
            };
            /** @description answers this calendar month by who answered */
            answers: {
                builtin: number;
                model: number;
                pattern: number;
                cache: number;
            };
            /** @description calls to model providers this calendar month, their input and output tokens as the providers reported them, and repair rounds */
            model: {
                calls: number;
                input_tokens: number;
                output_tokens: number;
                repairs: number;
            };
        };
        /** @description The usage */
        UsageResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Usage"];
        };
        Deleted: {
            message: string;
        };
        /** @description Deleted */
        DeletedResponse: {
            /** @constant */
            success: true;
            data: components["schemas"]["Deleted"];
        };
    };
    responses: never;
    parameters: {
        /** @description The end-user scope (1 to 255 printable characters; a number is read as its digits). Required: without it the response is 403 `FORBIDDEN`. */
        ScopeRequired: string;
        /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
        ScopeOptional: string;
        /** @description The tenant for row filtering: required when the database has `requires_organization_scoping` (403 `INVALID_TENANT_ID` without it); validated against the tenant column's type (integer, UUID, or 1 to 255 printable characters). Derive it from your own session, never from user input. */
        TenantId: string;
    };
    requestBodies: never;
    headers: {
        /** @description The request id, `req_…`: the `trace_id` of an error envelope. On every response. */
        "X-Request-ID": string;
        /** @description The limit of the tightest window that applies to the route (fewest requests left). On every response to a request the limiter counted: not on 401, nor on a 403 for the credential kind or plan. */
        "X-RateLimit-Limit": number;
        /** @description Requests left in that window after this one. */
        "X-RateLimit-Remaining": number;
        /** @description When that window ends, Unix time in seconds. */
        "X-RateLimit-Reset": number;
        /** @description Seconds to wait before retrying (429 and 503). */
        "Retry-After": number;
        /** @description The split of the request's time (answers only). */
        "Server-Timing": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getBranding: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The branding */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BrandingResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    putBranding: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    colors?: {
                        primary?: string;
                        secondary?: string;
                        accent?: string;
                        text_primary?: string;
                        text_secondary?: string;
                    };
                    /** Format: uri */
                    logo_url?: string;
                    /** Format: uri */
                    logo_dark_url?: string;
                    widget_theme?: {
                        /** @enum {string} */
                        position?: "bottom-right" | "bottom-left" | "top-right" | "top-left";
                        greeting_message?: string;
                        placeholder_text?: string;
                        header_color?: string;
                    };
                    hide_dialektai_branding?: boolean;
                };
            };
        };
        responses: {
            /** @description The branding */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BrandingResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request body is larger than 1 MB */
            413: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 413;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    listDatabases: {
        parameters: {
            query?: {
                page?: number;
                page_size?: number;
            };
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of databases */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DatabasesPage"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    createDatabase: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @enum {string} */
                    engine: "postgres" | "mysql";
                    /** @description Either `{url}` or `{host, port, database, user, password, sslmode}`. Stored in the secret store, never returned. */
                    connection: {
                        /** @description postgres://user:password@host:5432/database?sslmode=verify-full, or mysql://… */
                        url?: string;
                        host?: string;
                        port?: number;
                        database?: string;
                        user?: string;
                        password?: string;
                        /** @enum {string} */
                        sslmode?: "disable" | "allow" | "prefer" | "require" | "verify-ca" | "verify-full" | "no-verify";
                    };
                    tenant_filter_column?: string;
                    scope_filter_column?: string;
                    /** @description true: X-Tenant-Id is required and every query is filtered by tenant */
                    requires_organization_scoping?: boolean;
                    policy?: {
                        tenant_column?: string;
                        scope_column?: string;
                        scope_required?: boolean;
                        /** @default {} */
                        tables?: Record<string, never>;
                    };
                    /** @description What columns mean, table → column → text; applied at each indexing */
                    descriptions?: {
                        [key: string]: {
                            [key: string]: string;
                        };
                    };
                    /**
                     * @description what may reach a model provider: rows (default) sample values and result rows; aggregates: result rows only when every column is an aggregate; schema_only: neither (the service writes the answer)
                     * @enum {string}
                     */
                    model_data?: "rows" | "aggregates" | "schema_only";
                    /** @description columns never sent to a model provider, in a prompt, a sample or a row: table.column or schema.table.column */
                    redacted_columns?: string[];
                    glossary?: {
                        /**
                         * @description has too many entries
                         * @default {}
                         */
                        synonyms?: {
                            [key: string]: string;
                        };
                        /**
                         * @description has too many entries
                         * @default {}
                         */
                        metrics?: {
                            [key: string]: string;
                        };
                        /**
                         * @description has too many entries
                         * @default {}
                         */
                        filters?: {
                            [key: string]: string;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description The database is connected */
            201: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DatabaseCreatedResponse"];
                };
            };
            /**
             * @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed
             *     - `DUPLICATE_ENTRY` / `BUSINESS_DUPLICATE_ENTRY`: An entry with the same name already exists
             */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR" | "DUPLICATE_ENTRY";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR" | "BUSINESS_DUPLICATE_ENTRY";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request body is larger than 1 MB */
            413: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 413;
                    };
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: The connection test failed */
            422: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 422;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             *     - `INDEXING_QUOTA_EXCEEDED` / `INDEXING_QUOTA_EXCEEDED`: The indexing quota of this billing period is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED" | "INDEXING_QUOTA_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED" | "INDEXING_QUOTA_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    listConversations: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header: {
                /** @description The end-user scope (1 to 255 printable characters; a number is read as its digits). Required: without it the response is 403 `FORBIDDEN`. */
                "X-Scope-Id": components["parameters"]["ScopeRequired"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of conversations */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationsResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             *     - `FORBIDDEN` / `BUSINESS_FEATURE_NOT_AVAILABLE`: Custom API access needs the Professional plan or higher
             *     - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: The X-Scope-Id header is required on this endpoint
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED" | "BUSINESS_FEATURE_NOT_AVAILABLE";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /** @description - `NOT_FOUND` / `NOT_FOUND_RESOURCE`: Conversation not found */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_RESOURCE";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    listMessages: {
        parameters: {
            query?: {
                conversation_id?: string;
                limit?: number;
                order?: "asc" | "desc";
                cursor?: string;
            };
            header: {
                /** @description The end-user scope (1 to 255 printable characters; a number is read as its digits). Required: without it the response is 403 `FORBIDDEN`. */
                "X-Scope-Id": components["parameters"]["ScopeRequired"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of messages */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessagesResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             *     - `FORBIDDEN` / `BUSINESS_FEATURE_NOT_AVAILABLE`: Custom API access needs the Professional plan or higher
             *     - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: The X-Scope-Id header is required on this endpoint
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED" | "BUSINESS_FEATURE_NOT_AVAILABLE";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /** @description - `NOT_FOUND` / `NOT_FOUND_RESOURCE`: Conversation not found */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_RESOURCE";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    getConversationHistory: {
        parameters: {
            query?: never;
            header: {
                /** @description The end-user scope (1 to 255 printable characters; a number is read as its digits). Required: without it the response is 403 `FORBIDDEN`. */
                "X-Scope-Id": components["parameters"]["ScopeRequired"];
            };
            path: {
                conversation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The conversation */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationHistoryResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             *     - `FORBIDDEN` / `BUSINESS_FEATURE_NOT_AVAILABLE`: Custom API access needs the Professional plan or higher
             *     - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: The X-Scope-Id header is required on this endpoint
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED" | "BUSINESS_FEATURE_NOT_AVAILABLE";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /** @description - `NOT_FOUND` / `NOT_FOUND_RESOURCE`: Conversation not found */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_RESOURCE";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    rateAnswer: {
        parameters: {
            query?: never;
            header: {
                /** @description The end-user scope (1 to 255 printable characters; a number is read as its digits). Required: without it the response is 403 `FORBIDDEN`. */
                "X-Scope-Id": components["parameters"]["ScopeRequired"];
            };
            path: {
                conversation_id: string;
                message_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    rating: "up" | "down";
                    comment?: string;
                    corrected_sql?: string;
                };
            };
        };
        responses: {
            /** @description The rating is stored */
            201: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeedbackResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             *     - `FORBIDDEN` / `BUSINESS_FEATURE_NOT_AVAILABLE`: Custom API access needs the Professional plan or higher
             *     - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: The X-Scope-Id header is required on this endpoint
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED" | "BUSINESS_FEATURE_NOT_AVAILABLE";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /** @description - `NOT_FOUND` / `NOT_FOUND_RESOURCE`: Conversation not found */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_RESOURCE";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    deleteConversation: {
        parameters: {
            query?: never;
            header: {
                /** @description The end-user scope (1 to 255 printable characters; a number is read as its digits). Required: without it the response is 403 `FORBIDDEN`. */
                "X-Scope-Id": components["parameters"]["ScopeRequired"];
            };
            path: {
                conversation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeleteResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             *     - `FORBIDDEN` / `BUSINESS_FEATURE_NOT_AVAILABLE`: Custom API access needs the Professional plan or higher
             *     - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: The X-Scope-Id header is required on this endpoint
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED" | "BUSINESS_FEATURE_NOT_AVAILABLE";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /** @description - `NOT_FOUND` / `NOT_FOUND_RESOURCE`: Conversation not found */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_RESOURCE";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    sendMessage: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
                /** @description The tenant for row filtering: required when the database has `requires_organization_scoping` (403 `INVALID_TENANT_ID` without it); validated against the tenant column's type (integer, UUID, or 1 to 255 printable characters). Derive it from your own session, never from user input. */
                "X-Tenant-Id"?: components["parameters"]["TenantId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChatMessageRequest"] | components["schemas"]["AppendMessageRequest"];
            };
        };
        responses: {
            /** @description The answer (chat variant) */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatAnswerResponse"];
                };
            };
            /** @description The message is appended (append variant) */
            201: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppendResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             *     - `INVALID_TENANT_ID` / `AUTH_INSUFFICIENT_PERMISSIONS`: Tenant validation failed
             *     - `FORBIDDEN` / `BUSINESS_FEATURE_NOT_AVAILABLE`: Custom API access needs the Professional plan or higher
             *     - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: The X-Scope-Id header is required on this endpoint
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED" | "INVALID_TENANT_ID";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED" | "BUSINESS_FEATURE_NOT_AVAILABLE";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /**
             * @description - `NOT_FOUND` / `NOT_FOUND_RESOURCE`: Conversation not found
             *     - `DATABASE_NOT_FOUND` / `NOT_FOUND_DATABASE`: Database not found
             *     - `NOT_FOUND` / `NOT_FOUND_PERSONALITY`: Personality not found
             */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "NOT_FOUND" | "DATABASE_NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_RESOURCE" | "NOT_FOUND_DATABASE" | "NOT_FOUND_PERSONALITY";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request body is larger than 1 MB */
            413: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 413;
                    };
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: The connection test failed */
            422: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 422;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /**
             * @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred
             *     - `DB_CONNECTION_FAILED` / `DB_CONNECTION_FAILED`: Could not connect to the database
             *     - `DB_QUERY_FAILED` / `DB_QUERY_FAILED`: The database query failed
             *     - `EXTERNAL_LLM_ERROR` / `EXTERNAL_LLM_ERROR`: The language model provider failed
             */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR" | "DB_CONNECTION_FAILED" | "DB_QUERY_FAILED" | "EXTERNAL_LLM_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR" | "DB_CONNECTION_FAILED" | "DB_QUERY_FAILED" | "EXTERNAL_LLM_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    sendConversationMessage: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
                /** @description The tenant for row filtering: required when the database has `requires_organization_scoping` (403 `INVALID_TENANT_ID` without it); validated against the tenant column's type (integer, UUID, or 1 to 255 printable characters). Derive it from your own session, never from user input. */
                "X-Tenant-Id"?: components["parameters"]["TenantId"];
            };
            path: {
                conversation_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConversationMessageRequest"];
            };
        };
        responses: {
            /** @description The answer */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Server-Timing": components["headers"]["Server-Timing"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatAnswerResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             *     - `INVALID_TENANT_ID` / `AUTH_INSUFFICIENT_PERMISSIONS`: Tenant validation failed
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED" | "INVALID_TENANT_ID";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /**
             * @description - `NOT_FOUND` / `NOT_FOUND_RESOURCE`: Conversation not found
             *     - `DATABASE_NOT_FOUND` / `NOT_FOUND_DATABASE`: Database not found
             *     - `NOT_FOUND` / `NOT_FOUND_PERSONALITY`: Personality not found
             */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "NOT_FOUND" | "DATABASE_NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_RESOURCE" | "NOT_FOUND_DATABASE" | "NOT_FOUND_PERSONALITY";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request body is larger than 1 MB */
            413: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 413;
                    };
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: The connection test failed */
            422: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 422;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /**
             * @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred
             *     - `DB_CONNECTION_FAILED` / `DB_CONNECTION_FAILED`: Could not connect to the database
             *     - `DB_QUERY_FAILED` / `DB_QUERY_FAILED`: The database query failed
             *     - `EXTERNAL_LLM_ERROR` / `EXTERNAL_LLM_ERROR`: The language model provider failed
             */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR" | "DB_CONNECTION_FAILED" | "DB_QUERY_FAILED" | "EXTERNAL_LLM_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR" | "DB_CONNECTION_FAILED" | "DB_QUERY_FAILED" | "EXTERNAL_LLM_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    streamAnswer: {
        parameters: {
            query: {
                /** @description message must not be empty; message must be at most 4,000 characters */
                message: string;
                database_id?: string | null;
                personality_id?: string | null;
            };
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
                /** @description The tenant for row filtering: required when the database has `requires_organization_scoping` (403 `INVALID_TENANT_ID` without it); validated against the tenant column's type (integer, UUID, or 1 to 255 printable characters). Derive it from your own session, never from user input. */
                "X-Tenant-Id"?: components["parameters"]["TenantId"];
            };
            path: {
                conversation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": components["schemas"]["StreamEvent"][];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             *     - `INVALID_TENANT_ID` / `AUTH_INSUFFICIENT_PERMISSIONS`: Tenant validation failed
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED" | "INVALID_TENANT_ID";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /**
             * @description - `NOT_FOUND` / `NOT_FOUND_RESOURCE`: Conversation not found
             *     - `DATABASE_NOT_FOUND` / `NOT_FOUND_DATABASE`: Database not found
             *     - `NOT_FOUND` / `NOT_FOUND_PERSONALITY`: Personality not found
             */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "NOT_FOUND" | "DATABASE_NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_RESOURCE" | "NOT_FOUND_DATABASE" | "NOT_FOUND_PERSONALITY";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: The connection test failed */
            422: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 422;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /**
             * @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred
             *     - `DB_CONNECTION_FAILED` / `DB_CONNECTION_FAILED`: Could not connect to the database
             *     - `DB_QUERY_FAILED` / `DB_QUERY_FAILED`: The database query failed
             *     - `EXTERNAL_LLM_ERROR` / `EXTERNAL_LLM_ERROR`: The language model provider failed
             */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR" | "DB_CONNECTION_FAILED" | "DB_QUERY_FAILED" | "EXTERNAL_LLM_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR" | "DB_CONNECTION_FAILED" | "DB_QUERY_FAILED" | "EXTERNAL_LLM_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    createEmbedSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmbedSessionRequest"];
            };
        };
        responses: {
            /** @description The embed session */
            201: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmbedSessionResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /**
             * @description - `DATABASE_NOT_FOUND` / `NOT_FOUND_DATABASE`: Database not found
             *     - `NOT_FOUND` / `NOT_FOUND_PERSONALITY`: Personality not found
             */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "DATABASE_NOT_FOUND" | "NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_DATABASE" | "NOT_FOUND_PERSONALITY";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request body is larger than 1 MB */
            413: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 413;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenApiDocument"];
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    getReferencePage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The reference page (HTML) */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    getDatabase: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The database */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DatabaseDetailResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /** @description - `DATABASE_NOT_FOUND` / `NOT_FOUND_DATABASE`: Database not found */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "DATABASE_NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_DATABASE";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    deleteDatabase: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /** @description - `DATABASE_NOT_FOUND` / `NOT_FOUND_DATABASE`: Database not found */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "DATABASE_NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_DATABASE";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    updateDatabase: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    /** @description Either `{url}` or `{host, port, database, user, password, sslmode}`. Stored in the secret store, never returned. */
                    connection?: {
                        /** @description postgres://user:password@host:5432/database?sslmode=verify-full, or mysql://… */
                        url?: string;
                        host?: string;
                        port?: number;
                        database?: string;
                        user?: string;
                        password?: string;
                        /** @enum {string} */
                        sslmode?: "disable" | "allow" | "prefer" | "require" | "verify-ca" | "verify-full" | "no-verify";
                    };
                    tenant_filter_column?: string | null;
                    scope_filter_column?: string | null;
                    /** @description true: X-Tenant-Id is required and every query is filtered by tenant */
                    requires_organization_scoping?: boolean;
                    policy?: {
                        tenant_column?: string;
                        scope_column?: string;
                        scope_required?: boolean;
                        /** @default {} */
                        tables?: Record<string, never>;
                    };
                    /** @description What columns mean, table → column → text; applied at each indexing */
                    descriptions?: {
                        [key: string]: {
                            [key: string]: string;
                        };
                    };
                    /**
                     * @description what may reach a model provider: rows (default) sample values and result rows; aggregates: result rows only when every column is an aggregate; schema_only: neither (the service writes the answer)
                     * @enum {string}
                     */
                    model_data?: "rows" | "aggregates" | "schema_only";
                    /** @description columns never sent to a model provider, in a prompt, a sample or a row: table.column or schema.table.column */
                    redacted_columns?: string[];
                };
            };
        };
        responses: {
            /** @description The database is changed */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DatabaseUpdatedResponse"];
                };
            };
            /**
             * @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed
             *     - `DUPLICATE_ENTRY` / `BUSINESS_DUPLICATE_ENTRY`: An entry with the same name already exists
             */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR" | "DUPLICATE_ENTRY";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR" | "BUSINESS_DUPLICATE_ENTRY";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /** @description - `DATABASE_NOT_FOUND` / `NOT_FOUND_DATABASE`: Database not found */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "DATABASE_NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_DATABASE";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request body is larger than 1 MB */
            413: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 413;
                    };
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: The connection test failed */
            422: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 422;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             *     - `INDEXING_QUOTA_EXCEEDED` / `INDEXING_QUOTA_EXCEEDED`: The indexing quota of this billing period is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED" | "INDEXING_QUOTA_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED" | "INDEXING_QUOTA_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    indexDatabase: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job is queued */
            202: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobQueuedResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /** @description - `DATABASE_NOT_FOUND` / `NOT_FOUND_DATABASE`: Database not found */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "DATABASE_NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_DATABASE";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             *     - `INDEXING_QUOTA_EXCEEDED` / `INDEXING_QUOTA_EXCEEDED`: The indexing quota of this billing period is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED" | "INDEXING_QUOTA_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED" | "INDEXING_QUOTA_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    getJob: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /** @description - `NOT_FOUND` / `NOT_FOUND_JOB`: Job not found */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_JOB";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                page?: number;
                page_size?: number;
            };
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of keys */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeysPage"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description sk: an organization key for your servers; pk: a database key for the widget
                     * @enum {string}
                     */
                    kind: "sk" | "pk";
                    name?: string;
                    /**
                     * Format: uuid
                     * @description pk keys: the one database the key may use (required)
                     */
                    database_id?: string;
                    /** @description pk keys: the page origins allowed to use the key (any when absent) */
                    origins?: string[];
                    /** @description sk keys: may change the organization through the control plane (default false) */
                    manage?: boolean;
                };
            };
        };
        responses: {
            /** @description The key is created */
            201: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyCreatedResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /** @description - `DATABASE_NOT_FOUND` / `NOT_FOUND_DATABASE`: Database not found */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "DATABASE_NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_DATABASE";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request body is larger than 1 MB */
            413: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 413;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    deleteApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /** @description - `NOT_FOUND` / `NOT_FOUND_API_KEY`: API key not found */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_API_KEY";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    listPersonalities: {
        parameters: {
            query?: {
                page?: number;
                page_size?: number;
            };
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of personalities */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PersonalitiesPage"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    createPersonality: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    instructions: string;
                    language?: string;
                };
            };
        };
        responses: {
            /** @description The personality is created */
            201: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PersonalityResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request body is larger than 1 MB */
            413: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 413;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    getPersonality: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The personality */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PersonalityResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /** @description - `NOT_FOUND` / `NOT_FOUND_PERSONALITY`: Personality not found */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_PERSONALITY";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    deletePersonality: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /** @description - `NOT_FOUND` / `NOT_FOUND_PERSONALITY`: Personality not found */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_PERSONALITY";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    updatePersonality: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    instructions?: string;
                    language?: string | null;
                };
            };
        };
        responses: {
            /** @description The personality is changed */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PersonalityResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /** @description - `NOT_FOUND` / `NOT_FOUND_PERSONALITY`: Personality not found */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_PERSONALITY";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request body is larger than 1 MB */
            413: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 413;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    listPatterns: {
        parameters: {
            query?: {
                page?: number;
                page_size?: number;
                /** @description only the approved patterns, or only the candidates; all when absent */
                status?: "approved" | "candidate";
            };
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of patterns */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryPatternsPage"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /** @description - `DATABASE_NOT_FOUND` / `NOT_FOUND_DATABASE`: Database not found */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "DATABASE_NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_DATABASE";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    createPattern: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    question: string;
                    sql: string;
                    notes?: string;
                };
            };
        };
        responses: {
            /** @description The pattern is added */
            201: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryPatternResponse"];
                };
            };
            /**
             * @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed
             *     - `DUPLICATE_ENTRY` / `BUSINESS_DUPLICATE_ENTRY`: An entry with the same name already exists
             */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR" | "DUPLICATE_ENTRY";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR" | "BUSINESS_DUPLICATE_ENTRY";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /** @description - `DATABASE_NOT_FOUND` / `NOT_FOUND_DATABASE`: Database not found */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "DATABASE_NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_DATABASE";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request body is larger than 1 MB */
            413: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 413;
                    };
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: The connection test failed */
            422: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 422;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    deletePattern: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path: {
                id: string;
                pattern_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /**
             * @description - `DATABASE_NOT_FOUND` / `NOT_FOUND_DATABASE`: Database not found
             *     - `NOT_FOUND` / `NOT_FOUND_PATTERN`: Query pattern not found
             */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "DATABASE_NOT_FOUND" | "NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_DATABASE" | "NOT_FOUND_PATTERN";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    updatePattern: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path: {
                id: string;
                pattern_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    question?: string;
                    sql?: string;
                    notes?: string | null;
                    /** @enum {string} */
                    status?: "approved" | "candidate";
                };
            };
        };
        responses: {
            /** @description The pattern is changed */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryPatternResponse"];
                };
            };
            /**
             * @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed
             *     - `DUPLICATE_ENTRY` / `BUSINESS_DUPLICATE_ENTRY`: An entry with the same name already exists
             */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR" | "DUPLICATE_ENTRY";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR" | "BUSINESS_DUPLICATE_ENTRY";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /**
             * @description - `DATABASE_NOT_FOUND` / `NOT_FOUND_DATABASE`: Database not found
             *     - `NOT_FOUND` / `NOT_FOUND_PATTERN`: Query pattern not found
             */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "DATABASE_NOT_FOUND" | "NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_DATABASE" | "NOT_FOUND_PATTERN";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request body is larger than 1 MB */
            413: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 413;
                    };
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: The connection test failed */
            422: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 422;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    getGlossary: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The glossary */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GlossaryResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /** @description - `DATABASE_NOT_FOUND` / `NOT_FOUND_DATABASE`: Database not found */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "DATABASE_NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_DATABASE";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    putGlossary: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description has too many entries
                     * @default {}
                     */
                    synonyms?: {
                        [key: string]: string;
                    };
                    /**
                     * @description has too many entries
                     * @default {}
                     */
                    metrics?: {
                        [key: string]: string;
                    };
                    /**
                     * @description has too many entries
                     * @default {}
                     */
                    filters?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description The glossary is saved */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GlossaryResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /** @description - `DATABASE_NOT_FOUND` / `NOT_FOUND_DATABASE`: Database not found */
            404: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "DATABASE_NOT_FOUND";
                        };
                        /** @enum {unknown} */
                        error_code?: "NOT_FOUND_DATABASE";
                        /** @constant */
                        status_code?: 404;
                    };
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request body is larger than 1 MB */
            413: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 413;
                    };
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: The connection test failed */
            422: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 422;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
    getUsage: {
        parameters: {
            query?: never;
            header?: {
                /** @description The end-user scope (1 to 255 printable characters). A conversation created without it can be continued only by requests that also send none; on a database with a scope column it filters rows further. */
                "X-Scope-Id"?: components["parameters"]["ScopeOptional"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The usage */
            200: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsageResponse"];
                };
            };
            /** @description - `VALIDATION_ERROR` / `VALIDATION_ERROR`: Request validation failed */
            400: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "VALIDATION_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "VALIDATION_ERROR";
                        /** @constant */
                        status_code?: 400;
                    };
                };
            };
            /**
             * @description - `UNAUTHORIZED` / `AUTH_INVALID_CREDENTIALS`: Missing or invalid credentials
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_EXPIRED`: The access token has expired
             *     - `UNAUTHORIZED` / `AUTH_TOKEN_INVALID`: The access token is invalid
             */
            401: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "UNAUTHORIZED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INVALID_CREDENTIALS" | "AUTH_TOKEN_EXPIRED" | "AUTH_TOKEN_INVALID";
                        /** @constant */
                        status_code?: 401;
                    };
                };
            };
            /**
             * @description - `FORBIDDEN` / `AUTH_INSUFFICIENT_PERMISSIONS`: This credential is not allowed to use this endpoint
             *     - `PLAN_FEATURE_REQUIRED` / `BUSINESS_SUBSCRIPTION_REQUIRED`: API access with an organization key needs the Starter plan or higher
             */
            403: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "FORBIDDEN" | "PLAN_FEATURE_REQUIRED";
                        };
                        /** @enum {unknown} */
                        error_code?: "AUTH_INSUFFICIENT_PERMISSIONS" | "BUSINESS_SUBSCRIPTION_REQUIRED";
                        /** @constant */
                        status_code?: 403;
                    };
                };
            };
            /**
             * @description - `RATE_LIMIT_EXCEEDED` / `QUOTA_RATE_LIMIT_EXCEEDED`: Too many requests
             *     - `RATE_LIMIT_EXCEEDED` / `QUOTA_MONTHLY_LIMIT_EXCEEDED`: The monthly API quota is used up
             */
            429: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "RATE_LIMIT_EXCEEDED";
                        };
                        /** @enum {unknown} */
                        error_code?: "QUOTA_RATE_LIMIT_EXCEEDED" | "QUOTA_MONTHLY_LIMIT_EXCEEDED";
                        /** @constant */
                        status_code?: 429;
                    };
                };
            };
            /** @description - `INTERNAL_SERVER_ERROR` / `SYSTEM_INTERNAL_ERROR`: An unexpected error occurred */
            500: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "INTERNAL_SERVER_ERROR";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_INTERNAL_ERROR";
                        /** @constant */
                        status_code?: 500;
                    };
                };
            };
            /** @description - `SERVICE_UNAVAILABLE` / `SYSTEM_SERVICE_UNAVAILABLE`: The service is temporarily unavailable; retry later */
            503: {
                headers: {
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "SERVICE_UNAVAILABLE";
                        };
                        /** @enum {unknown} */
                        error_code?: "SYSTEM_SERVICE_UNAVAILABLE";
                        /** @constant */
                        status_code?: 503;
                    };
                };
            };
        };
    };
}
