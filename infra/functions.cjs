// serverless.yml's `functions` (a `${file(...)}` variable source): every function that serves
// routes, with one http event per route, built from the route objects of lib/routes/ and merged
// with `custom.functionSettings` by infra/functions.ts. Node 24 loads the TypeScript modules as
// they are (type stripping), so the packaged routes are the ones the functions and the OpenAPI
// document read.
'use strict';

const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const root = join(__dirname, '..');
const load = (path) => import(pathToFileURL(join(root, path)).href);

module.exports = async ({ resolveVariable }) => {
  const settings = (await resolveVariable('self:custom.functionSettings')) || {};
  const [{ functionsOf }, { routes }] = await Promise.all([
    load('infra/functions.ts'),
    load('lib/routes/index.ts'),
  ]);
  return functionsOf(routes, settings);
};
