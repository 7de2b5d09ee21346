// The admin commands, run by admin/main.ts once the target is in the settings: each command's
// name and the function that runs it (admin/command.ts says what a command is).
import { migrateConversationAddresses } from '#lib/store/conversation-addresses.ts';
import type { CommandName } from './args.ts';
import type { Run } from './command.ts';
import {
  databaseAdd,
  databaseEgressSet,
  databaseGlossarySet,
  databaseIndex,
  databaseList,
  sqlCheck,
} from './databases.ts';
import {
  brandingSet,
  keyCreate,
  keyList,
  keyRevoke,
  orgCreate,
  orgSetLimits,
  orgSetPlan,
} from './organizations.ts';
import { patternAdd, patternList } from './patterns.ts';
import { personalityCreate, personalityList } from './personalities.ts';

export const runners: Record<CommandName, Run> = {
  'org create': orgCreate,
  'org set-plan': orgSetPlan,
  'org set-limits': orgSetLimits,
  'key create': keyCreate,
  'key revoke': keyRevoke,
  'key list': keyList,
  'branding set': brandingSet,
  'database add': databaseAdd,
  'database list': databaseList,
  'database index': databaseIndex,
  'database glossary set': databaseGlossarySet,
  'database egress set': databaseEgressSet,
  'sql check': sqlCheck,
  'personality create': personalityCreate,
  'personality list': personalityList,
  'pattern add': patternAdd,
  'pattern list': patternList,
  'conversations migrate-addresses': async (_values, connect) => {
    await connect();
    return migrateConversationAddresses();
  },
};
