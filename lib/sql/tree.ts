// A node of a parse tree as the dialects' parsers return it: a plain JSON object (libpg-query's
// protobuf JSON, node-sql-parser's AST). What the shared guard helpers (allocation.ts,
// recursion.ts) walk, whatever the dialect.
export type SqlNode = Record<string, unknown>;
