// serverless.yml's `functions`, built from the route objects (lib/routes/) so that no route is
// written twice: each function that serves routes gets its handler (functions/<the function name
// in kebab case>.ts, as lib/http/route.ts says) and one http event per route, and
// serverless.yml's `custom.functionSettings` adds what a function needs beyond the provider's
// defaults (memory, timeout, environment, files) and declares the functions that serve no route.
// infra/functions.cjs hands the result to serverless; the local stack and the tests build the same
// functions from the same objects (local/serverless-config.ts, tests/unit/functions/routes.test.ts).
import type { Route } from '../lib/http/route.ts';

/** An http event as serverless takes it. */
export interface HttpEvent {
  http: { path: string; method: string; response?: { transferMode: 'STREAM' } };
}

/** One function of serverless.yml: its handler and events, and any other setting it has. */
export interface FunctionConfig {
  handler: string;
  description?: string;
  events?: HttpEvent[];
  environment?: Record<string, string>;
  [setting: string]: unknown;
}

/** A function's settings in `custom.functionSettings`: anything but its routes. */
export type FunctionSettings = Omit<Partial<FunctionConfig>, 'events'> & { events?: never };

/** `messageFeedback` → `functions/message-feedback.handler`. */
export const handlerOf = (functionName: string): string =>
  `functions/${functionName.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}.handler`;

/** The http event of a route: a response-streaming route asks API Gateway for STREAM. */
export const httpEventOf = (route: Pick<Route, 'method' | 'path' | 'stream'>): HttpEvent => ({
  http: {
    path: route.path,
    method: route.method.toLowerCase(),
    ...(route.stream ? { response: { transferMode: 'STREAM' as const } } : {}),
  },
});

/** Lambda's limit on a function's description. */
const MAX_DESCRIPTION = 256;

/** What the function serves, in the words of its routes' summaries. */
const descriptionOf = (served: readonly Route[]): string => {
  const [only] = served;
  const text =
    served.length === 1 && only
      ? `${only.summary} (${only.method} ${only.path})`
      : served.map((route) => route.summary).join('; ');
  return text.length <= MAX_DESCRIPTION ? text : `${text.slice(0, MAX_DESCRIPTION - 1)}…`;
};

/**
 * The functions of the service: those the routes name, with their events, merged with their
 * settings; then the functions of the settings that serve no route. A setting may not give a
 * routed function another handler or events: the route objects are their one source.
 */
export const functionsOf = (
  routes: readonly Route[],
  settings: Readonly<Record<string, FunctionSettings>> = {},
): Record<string, FunctionConfig> => {
  const served = new Map<string, Route[]>();
  for (const route of routes)
    served.set(route.functionName, [...(served.get(route.functionName) ?? []), route]);
  const functions: Record<string, FunctionConfig> = {};
  for (const [name, own] of Object.entries(settings)) {
    if (own.events)
      throw new Error(`functionSettings.${name}: events come from the route objects (lib/routes/)`);
    if (served.has(name) && own.handler && own.handler !== handlerOf(name))
      throw new Error(
        `functionSettings.${name}: a function that serves routes has the handler ${handlerOf(name)}`,
      );
    if (!served.has(name) && !own.handler)
      throw new Error(`functionSettings.${name}: serves no route (lib/routes/), so it needs a handler`);
  }
  for (const [name, own] of Object.entries(settings)) {
    if (served.has(name)) continue;
    functions[name] = { ...own, handler: own.handler as string };
  }
  for (const [name, routesOfFunction] of served) {
    functions[name] = {
      handler: handlerOf(name),
      description: descriptionOf(routesOfFunction),
      ...settings[name],
      events: routesOfFunction.map(httpEventOf),
    };
  }
  return functions;
};
