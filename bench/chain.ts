// Figure (a): middleware-chain overhead per request, measured by bench/chain-child.ts in a
// fresh process (so no other figure's modules, caches or JIT state take part).
import type { ChainResult } from './chain-child.ts';
import { type Figure, fixed, median, printFigure, runBenchChild, type Section, table } from './common.ts';

const TARGET_US = 300;

export const measureChain = async (): Promise<Section> => {
  const result = await runBenchChild<ChainResult>('chain-child.ts');
  const bare = median(result.bareUs);
  const full = median(result.fullUs);
  const overhead = full - bare;
  const total = result.rounds * result.iterationsPerRound;
  const figures: Figure[] = [
    {
      name: '(a) middleware-chain overhead per request',
      measured: `+${fixed(overhead)} µs (full ${fixed(full)} µs / bare ${fixed(bare)} µs = ×${fixed(full / bare, 2)})`,
      target: `≤ ${TARGET_US} µs`,
      pass: overhead <= TARGET_US,
    },
    {
      name: '(a) DynamoDB calls per warm request (mocked), limiter excluded',
      measured: fixed(result.callsPerRequest, 2),
      target: '≤ 1',
      pass: result.callsPerRequest <= 1,
    },
    {
      name: '(a) limiter calls per warm request (mocked)',
      measured: fixed(result.limiterCallsPerRequest, 2),
      target: '≤ 1',
      pass: result.limiterCallsPerRequest <= 1,
    },
  ];
  for (const figure of figures) printFigure(figure);

  const rounds = (values: number[]) => values.map((value) => fixed(value)).join(', ');
  const markdown = `## (a) Middleware-chain overhead per request

${table(
  ['Variant', 'µs / request (median of rounds)', 'Rounds (µs / request)', 'Relative'],
  [
    ['Bare: `readBranding` + `ok()`', fixed(bare), rounds(result.bareUs), '×1.00'],
    [
      'Full chain: `functions/branding.ts` handler',
      fixed(full),
      rounds(result.fullUs),
      `×${fixed(full / bare, 2)}`,
    ],
    [
      '**Chain overhead** (full − bare)',
      `**${fixed(overhead)}**`,
      '',
      `${fixed((overhead / TARGET_US) * 100)} % of the ${TARGET_US} µs target`,
    ],
  ],
)}

DynamoDB calls per warm request through the full chain: ${fixed(result.callsPerRequest, 2)} (the key cache leaves only the branding read),
plus ${fixed(result.limiterCallsPerRequest, 2)} for the limiter (its one UpdateItem).

Method: a fresh Node process with \`POWERTOOLS_LOG_LEVEL=SILENT\` and \`TABLE_NAME\` set before the settings are first read;
\`mockClient(DynamoDBDocumentClient)\` answers \`GetCommand\` with fixed items for the key hash, the organization
(professional) and the branding, and the limiter's \`UpdateCommand\` with counters far from any limit, so no network or
SDK middleware is timed. The event is a REST API (v1) proxy event
with the 17 headers an edge-optimised API Gateway passes (built by \`local/lambda.ts\` \`restEvent\`), the caller
authenticating with an sk_ key in \`X-API-Key\`. Both variants get a fresh copy of the Lambda context per call and must
return the same body. ${result.warmup.toLocaleString('en-US')} warm-up calls of each, then ${result.rounds} alternating rounds of
${result.iterationsPerRound.toLocaleString('en-US')} sequential awaited calls per variant (${total.toLocaleString('en-US')} each in all); the figure is the median
round's mean. The chain is requestId → Powertools injectLambdaContext → rateLimitHeaders → errorEnvelope →
headerNormaliser → authenticate (SHA-256 of the key + cache hit) → rateLimit (plan, expression and headers; the
UpdateItem mocked) → scope.
`;
  return { figures, markdown };
};
