// Serverless plugin: gives the deployed REST API the local gateway's answers for requests that
// match no route. For every resource path that has http events it adds an ANY method, and it
// adds ANY /{proxy+}, both served by the `routeFallback` function: a wrong method on a known path
// gets 405 with Allow, anything else 404, in the service's envelope (docs/design.md "Smaller
// decisions"). API Gateway prefers a resource's own methods over ANY, so real routes are untouched.
'use strict';

const FALLBACK = 'routeFallback';

class RouteFallbackPlugin {
  constructor(serverless) {
    this.serverless = serverless;
    this.hooks = { 'before:package:compileFunctions': () => this.addFallbackRoutes() };
  }

  addFallbackRoutes() {
    const functions = this.serverless.service.functions;
    const fallback = functions[FALLBACK];
    if (!fallback) throw new Error(`route-fallback-plugin: declare a function named ${FALLBACK}`);
    const methods = {};
    for (const [name, fn] of Object.entries(functions)) {
      if (name === FALLBACK) continue;
      for (const event of fn.events || []) {
        if (!event.http || typeof event.http !== 'object') continue;
        const path = `/${String(event.http.path).replace(/^\/+/, '')}`;
        methods[path] = [...(methods[path] || []), String(event.http.method).toUpperCase()];
      }
    }
    fallback.environment = { ...fallback.environment, ROUTE_METHODS: JSON.stringify(methods) };
    fallback.events = [
      ...Object.keys(methods).map((path) => ({ http: { path, method: 'any' } })),
      { http: { path: '/{proxy+}', method: 'any' } },
    ];
  }
}

module.exports = RouteFallbackPlugin;
