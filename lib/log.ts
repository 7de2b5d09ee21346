// The structured JSON logger shared by every function (Powertools Logger). The request-id
// middleware appends `trace_id` to every line of a request.
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({ serviceName: 'tabletalk' });
