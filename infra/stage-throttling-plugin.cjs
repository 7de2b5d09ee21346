// Serverless plugin: API Gateway throttling of the whole stage (docs/limits.md "Before the
// functions"). The service's own limits count per organization and need a valid key to know
// which; a flood of unauthenticated requests would still start a Lambda for each. The stage's
// default method throttling (`custom.stageSettings.throttling`: steady requests per second and a
// burst) turns such a flood away at API Gateway with 429 before any function runs. The compiled
// template's one AWS::ApiGateway::Deployment gets it as its StageDescription.
'use strict';

class StageThrottlingPlugin {
  constructor(serverless) {
    this.serverless = serverless;
    this.hooks = { 'after:package:compileEvents': () => this.addStageThrottling() };
  }

  addStageThrottling() {
    const { throttling } = this.serverless.service.custom?.stageSettings ?? {};
    const rate = Number(throttling?.rateLimit);
    const burst = Number(throttling?.burstLimit);
    if (!Number.isFinite(rate) || !Number.isInteger(burst) || rate <= 0 || burst <= 0) {
      throw new Error('stage-throttling-plugin: set custom.stageSettings.throttling {rateLimit, burstLimit}');
    }
    const resources = this.serverless.service.provider.compiledCloudFormationTemplate.Resources;
    const deployments = Object.values(resources).filter((r) => r.Type === 'AWS::ApiGateway::Deployment');
    for (const deployment of deployments) {
      deployment.Properties.StageDescription = {
        ...deployment.Properties.StageDescription,
        ThrottlingRateLimit: rate,
        ThrottlingBurstLimit: burst,
      };
    }
  }
}

module.exports = StageThrottlingPlugin;
