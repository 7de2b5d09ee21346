// Setup file of every suite (vitest.config.ts): each test starts from the environment as it is,
// so a test that changes it (vi.stubEnv, process.env) before its code runs gets those settings.
// Settings and the clients built from them are read on first use (lib/config.ts), never at
// import, so no test depends on the order of its imports.
import { afterEach, beforeEach, vi } from 'vitest';
import { resetSettings } from '#lib/config.ts';

beforeEach(() => {
  resetSettings();
});

afterEach(() => {
  vi.unstubAllEnvs();
  resetSettings();
});
