// The functions' environment on the local stack (local/stack.ts `localEnvironment`): what npm start
// applies to its own process and npm run offline hands to serverless-offline.
import { describe, expect, it } from 'vitest';
import { LOCAL_STAGE, localEnvironment } from '../../local/stack.ts';

const stack = { dynamodbEndpoint: 'http://127.0.0.1:8300', tableName: 'tabletalk-local' };
const secrets = {
  TABLETALK_JWT_SECRET: 'jwt-secret-0123456789abcdef0123456789',
  TABLETALK_CURSOR_SECRET: 'cursor-secret-0123456789abcdef012345',
  TABLETALK_EMBED_SESSION_SECRET: 'embed-secret-0123456789abcdef0123456',
};

describe('localEnvironment', () => {
  it('keeps the stage settings the environment does not set, and puts the local stack over them', () => {
    // Arrange
    const stageSettings = {
      ANSWER_ENGINE: 'builtin',
      LIMITS_ENABLED: 'true',
      TABLE_NAME: 'tabletalk-other',
      LOCAL_SECRET_KEY_FILE: '.local/credentials.key',
    };

    // Act
    const environment = localEnvironment(stageSettings, stack, { ...secrets, LIMITS_ENABLED: 'false' });

    // Assert
    expect(environment).toMatchObject({
      ANSWER_ENGINE: 'builtin',
      LIMITS_ENABLED: 'false',
      STAGE: LOCAL_STAGE,
      TABLE_NAME: 'tabletalk-local',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:8300',
      AWS_REGION: 'us-east-1',
      LOCAL_SECRET_KEY_FILE: '.local/credentials.key',
      POWERTOOLS_LOG_LEVEL: 'WARN',
      JWT_SECRET: secrets.TABLETALK_JWT_SECRET,
      JWT_JWKS_URL: '',
      CURSOR_SECRET: secrets.TABLETALK_CURSOR_SECRET,
      EMBED_SESSION_SECRET: secrets.TABLETALK_EMBED_SESSION_SECRET,
    });
  });

  it('takes the log level from LOG_LEVEL and leaves the environment it reads alone', () => {
    const env = { ...secrets, LOG_LEVEL: 'DEBUG', AWS_REGION: 'eu-west-1' };
    const before = { ...env };

    const environment = localEnvironment({}, stack, env);

    expect(environment.POWERTOOLS_LOG_LEVEL).toBe('DEBUG');
    expect(environment.AWS_REGION).toBe('eu-west-1');
    expect(env).toEqual(before);
  });
});
