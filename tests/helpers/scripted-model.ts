// The local gateway with a scripted OpenAI-compatible model server (fake-openai.ts) as the
// `openai` engine, an organization, the demo shop registered for it, and a personality that
// answers with that engine: what tests of the model engines' answers over HTTP start from.
import { clearEngines } from '#lib/answer/registry.ts';
import { resetSettings } from '#lib/config.ts';
import { createPersonality } from '#lib/store/personalities.ts';
import { closeConnectors, registerDatabase } from './answering.ts';
import { startFakeOpenAi } from './fake-openai.ts';
import { makeOrganization } from './fixtures.ts';
import { startTestGateway } from './gateway.ts';

export const startScriptedModelStack = async (model: string) => {
  const fake = await startFakeOpenAi();
  const saved = process.env.OPENAI_BASE_URL;
  process.env.OPENAI_BASE_URL = fake.baseUrl;
  resetSettings();
  clearEngines();
  const gateway = await startTestGateway();
  const acme = await makeOrganization('professional');
  const shop = await registerDatabase({ organizationId: acme.organization.id });
  const personality = await createPersonality({
    organizationId: acme.organization.id,
    name: 'Scripted model',
    engine: 'openai',
    model,
  });
  const close = async (): Promise<void> => {
    await gateway.close();
    await fake.close();
    await closeConnectors();
    if (saved === undefined) delete process.env.OPENAI_BASE_URL;
    else process.env.OPENAI_BASE_URL = saved;
    resetSettings();
    clearEngines();
  };
  return { fake, gateway, acme, shop, personality, close };
};
