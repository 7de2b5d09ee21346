import { defineConfig } from 'vitest/config';

// Three suites: unit (AWS SDK mocked), integration (DynamoDB Local and real databases) and e2e
// (HTTP through the local gateway). The last two share one DynamoDB Local started by
// tests/helpers/dynamodb-setup.ts on a free port.
// Metrics (EMF on stdout) and tracing stay off in tests; tests/unit/observability*.test.ts turn
// metrics on for themselves.
const quiet = {
  POWERTOOLS_LOG_LEVEL: 'SILENT',
  POWERTOOLS_METRICS_DISABLED: 'true',
  POWERTOOLS_TRACE_ENABLED: 'false',
  AWS_REGION: 'us-east-1',
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          setupFiles: ['tests/helpers/settings.ts'],
          env: {
            ...quiet,
            // The handler tests here count each concern's DynamoDB calls with a mocked client; the
            // limiter's own unit tests build its middleware directly (tests/unit/limits), and the
            // integration and e2e suites run every route with limits on.
            LIMITS_ENABLED: 'false',
            TABLE_NAME: 'tabletalk-unit',
            CURSOR_SECRET: 'unit-cursor-secret-0123456789abcdef',
            EMBED_SESSION_SECRET: 'unit-embed-session-secret-0123456789abcdef',
          },
          // Hooks that start an embedded database (PGlite) or load a seed take seconds on a busy
          // machine; the default 10 s ended a full run at load 25 although every test passed.
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: [
            'tests/integration/**/*.test.ts',
            'tests/e2e/**/*.test.ts',
            'tests/fuzz/**/*.test.ts',
            'tests/faults/**/*.test.ts',
            // The chat widget in Chromium against the same stack.
            'tests/browser/**/*.test.ts',
          ],
          globalSetup: ['tests/helpers/dynamodb-setup.ts'],
          setupFiles: ['tests/helpers/settings.ts'],
          // Portal JWTs in tests are signed with this secret (tests/helpers/gateway.ts).
          env: {
            ...quiet,
            JWT_SECRET: 'test-portal-secret-0123456789abcdef',
            TABLETALK_JWT_SECRET: 'test-portal-secret-0123456789abcdef',
            // Page cursors are signed with this key (lib/store/cursor.ts; the gateway reads TABLETALK_*).
            CURSOR_SECRET: 'test-cursor-secret-0123456789abcdef',
            TABLETALK_CURSOR_SECRET: 'test-cursor-secret-0123456789abcdef',
            // Embed-session tokens (et_…, lib/auth/embed-token.ts) are signed with this key.
            EMBED_SESSION_SECRET: 'test-embed-session-secret-0123456789abcdef',
            TABLETALK_EMBED_SESSION_SECRET: 'test-embed-session-secret-0123456789abcdef',
          },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
