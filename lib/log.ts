// The structured JSON logger shared by every function (Powertools Logger), created on first use
// with the level of the settings (POWERTOOLS_LOG_LEVEL), so importing this module reads nothing.
// The request-id middleware appends `trace_id` to every line of a request.
import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { LogAttributes, LogItemMessage } from '@aws-lambda-powertools/logger/types';
import type { MiddlewareObj } from '@middy/core';
import { fromSettings } from '#lib/config.ts';

/** The Powertools Logger of this container. */
export const loggerInstance = fromSettings(
  ({ observability }) =>
    new Logger({
      serviceName: 'tabletalk',
      logLevel: observability.logLevel,
    }),
);

type LogCall = (message: LogItemMessage, ...attributes: LogAttributes[]) => void;

/** What the code logs through: each call goes to the container's logger. */
export const logger: Record<'debug' | 'info' | 'warn' | 'error', LogCall> & {
  appendKeys: (attributes: LogAttributes) => void;
  removeKeys: (keys: string[]) => void;
} = {
  debug: (message, ...attributes) => loggerInstance().debug(message, ...attributes),
  info: (message, ...attributes) => loggerInstance().info(message, ...attributes),
  warn: (message, ...attributes) => loggerInstance().warn(message, ...attributes),
  error: (message, ...attributes) => loggerInstance().error(message, ...attributes),
  appendKeys: (attributes) => loggerInstance().appendKeys(attributes),
  removeKeys: (keys) => loggerInstance().removeKeys(keys),
};

/** Powertools' injectLambdaContext for the container's logger, which it creates on the first request. */
export const logLambdaContext = (): MiddlewareObj => {
  let inner: MiddlewareObj | undefined;
  const middleware = (): MiddlewareObj => {
    inner ??= injectLambdaContext(loggerInstance()) as MiddlewareObj;
    return inner;
  };
  return {
    before: (request) => middleware().before?.(request),
    after: (request) => middleware().after?.(request),
    onError: (request) => middleware().onError?.(request),
  };
};
