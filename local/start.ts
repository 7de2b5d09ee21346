// npm start: the whole local stack in one command. DynamoDB Local (data under .local/dynamodb,
// kept across restarts; --fresh resets), the table, the demo organization, and every route on
// http://127.0.0.1:3000 (PORT overrides) through the local gateway. Ctrl-C stops it all.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type DemoPageOptions, demoBackend, widgetPages } from '../web/serve.ts';
import { ensureDemo } from './demo/seed.ts';
import { freePort, isDynamoDbUp, localClient, type RunningDynamoDb, startDynamoDb } from './dynamodb.ts';
import { startGateway } from './gateway.ts';
import { environmentOf, loadServerlessConfig, routesOf } from './serverless-config.ts';
import {
  applyLocalEnvironment,
  DEFAULT_DYNAMODB_PORT,
  LOCAL_STAGE,
  LOCAL_TABLE,
  localDir,
  root,
  writeStackInfo,
} from './stack.ts';
import { ensureTable } from './table.ts';

const { values: flags } = parseArgs({
  options: { fresh: { type: 'boolean', default: false }, port: { type: 'string' } },
});
const port = Number(flags.port ?? process.env.PORT ?? 3000);
const steps = 5;
let step = 0;
const progress = (message: string): void => console.log(`[${++step}/${steps}] ${message}`);

let dynamodb: RunningDynamoDb | undefined;
let stopping = false;
const stop = async (code = 0): Promise<never> => {
  if (!stopping) {
    stopping = true;
    console.log('\nStopping the local stack…');
    await dynamodb?.stop();
  }
  process.exit(code);
};
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

try {
  const dataDir = join(localDir, 'dynamodb');
  if (flags.fresh) {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(join(localDir, 'demo.json'), { force: true });
  }

  const preferredPort = Number(process.env.DYNAMODB_PORT ?? DEFAULT_DYNAMODB_PORT);
  const dynamodbPort = (await isDynamoDbUp(`http://127.0.0.1:${preferredPort}`))
    ? await freePort()
    : preferredPort;
  progress(
    `Starting DynamoDB Local on port ${dynamodbPort} (data in .local/dynamodb${flags.fresh ? ', fresh' : ''})…`,
  );
  dynamodb = await startDynamoDb({ port: dynamodbPort, dataDir });
  dynamodb.process.once('exit', (code) => {
    if (!stopping) {
      console.error(`DynamoDB Local exited unexpectedly (code ${code}).`);
      void stop(1);
    }
  });

  progress('Reading the serverless configuration…');
  const config = await loadServerlessConfig(root, LOCAL_STAGE);
  const stack = { dynamodbEndpoint: dynamodb.endpoint, tableName: LOCAL_TABLE };
  // The default logos come from this gateway (web/serve.ts), not from a CDN the machine may not reach.
  process.env.ASSETS_URL ??= `http://127.0.0.1:${port}`;
  applyLocalEnvironment(environmentOf(config), stack);

  progress(`Creating table ${LOCAL_TABLE}…`);
  const client = localClient(dynamodb.endpoint);
  const created = await ensureTable(client, LOCAL_TABLE);
  client.destroy();
  if (!created) console.log('      (table exists, kept)');

  progress('Seeding the demo organization and indexing its database…');
  const { demo, created: seeded, indexed } = await ensureDemo();
  if (!seeded)
    console.log(`      (demo organization exists, kept${indexed ? '; shop.sql changed, re-indexed' : ''})`);

  const routes = routesOf(config);
  progress(`Starting the local gateway with ${routes.length} routes…`);
  // The chat widget's demo page on / and its script on /widget.js. The demo database filters rows
  // by tenant, so the page uses an embed session (tenant 1, scope demo-visitor) from the demo
  // backend route POST /demo/session, which asks for it with the sk_ key; the page holds no key.
  const demoOptions: DemoPageOptions = {
    databaseId: demo.databaseId,
    session: { skKey: demo.skKey, tenantId: '1', scopeId: 'demo-visitor' },
  };
  const gateway = await startGateway({
    root,
    routes,
    pages: widgetPages(demoOptions),
    actions: demoBackend(demoOptions),
    port,
    stage: LOCAL_STAGE,
    onRequest: ({ method, path, status, ms }) => console.log(`${method} ${path} → ${status} (${ms} ms)`),
  });
  writeStackInfo({ ...stack, baseUrl: gateway.url, pid: process.pid });

  console.log(`
tabletalk is running at ${gateway.url}/api/v1
The chat widget's demo page: ${gateway.url}/  (script: ${gateway.url}/widget.js)
  It holds no key: its embed session comes from the demo backend, POST ${gateway.url}/demo/session.

  Organization id    ${demo.organizationId}  (Demo Company, professional plan; admin commands take --org ${demo.organizationId})
  Demo database      ${demo.databaseId}
                     (PGlite from local/demo/shop.sql; tenants X-Tenant-Id 1, 2 and 3)
  Organization key   ${demo.skKey}  (questions, embed sessions, reads)
  Manage key         ${demo.manageKey}  (also changes the organization: the control plane)
  Database key       ${demo.pkKey}  (refused by this database, which filters rows by tenant)

Try it:
  curl -s -H "X-API-Key: ${demo.skKey}" ${gateway.url}/api/v1/branding
  curl -s -H "X-API-Key: ${demo.skKey}" -H "X-Tenant-Id: 1" -H "Content-Type: application/json" \\
    ${gateway.url}/api/v1/chat/message \\
    -d '{"message": "How many orders were placed in 2025?", "database_id": "${demo.databaseId}"}'
  curl -s -H "X-API-Key: ${demo.skKey}" -H "Content-Type: application/json" \\
    ${gateway.url}/api/v1/embed/sessions \\
    -d '{"database_id": "${demo.databaseId}", "tenant_id": "1", "scope_id": "visitor-7"}'
  npm run --silent admin -- sql check --database ${demo.databaseId} --tenant 1 \\
    --sql "SELECT status, count(*) FROM orders GROUP BY status" --execute

The control plane (docs/control-plane.md "Walk-through"): paste this line, then the walk-through's
steps 3 to 7 as written (steps 1 and 2, connecting and indexing, are done for the demo database):
  export API=${gateway.url} AUTH="X-API-Key: ${demo.manageKey}" DATABASE_ID=${demo.databaseId}
  curl -s "$API/api/v1/organization/databases/$DATABASE_ID" -H "$AUTH"

Routes:
${routes.map((r) => `  ${r.method.padEnd(6)} ${r.path}${r.streaming ? '  (streaming)' : ''}`).join('\n')}

Press Ctrl-C to stop.`);
} catch (error) {
  console.error(`\nThe local stack could not start: ${(error as Error).message}`);
  if ((error as { code?: string }).code === 'EADDRINUSE')
    console.error(`Port ${port} is taken: set PORT to another port.`);
  await stop(1);
}
