// `npm run generator:check`: the configured generator's model profile against the schema the model itself
// publishes (a Cog container's GET /openapi.json, a Replicate version's openapi_schema): every input the
// profile would send and the output it reads; for Cog, the upload address the container must be started with.
// Prints each problem and exits 1; 0 when the profile fits (and the upload address will do).
// Run it before the first customer pays, and after changing GENERATOR_MODEL or the container.
import { ConfigError, loadConfig } from '../config.js';
import { createGenerator } from '../generator/create-generator.js';
import { SAMPLE_REQUEST, checkGenerator } from '../generator/model-schema.js';
import { cogDockerCommand, cogUploadUrl, uploadUrlProblem } from '../generator/upload-address.js';

try {
  const config = loadConfig();
  if (!config.generator) {
    console.error('no generator configured (GENERATOR is not set): nothing to check');
    process.exit(1);
  }
  const generator = createGenerator(config.generator);
  console.log(`model: ${generator.model} (${generator.kind}), profile: ${generator.profile.key}`);
  const problems = await checkGenerator(generator);
  if (generator.kind === 'cog' && config.generator.webhookSecret) {
    // The container sends its pictures here (without it, Cog answers paths inside the container).
    const uploadUrl = cogUploadUrl(config.publicUrl, config.generator.webhookSecret);
    console.log(`the container must run with this upload address (--upload-url ${uploadUrl}), e.g.:\n  ${cogDockerCommand(config.generator.model ?? '<owner>/<model>', uploadUrl)}`);
    const problem = uploadUrlProblem(config.publicUrl);
    if (problem) {
      console.error(`the upload address will not do: ${problem}`);
      process.exitCode = 1;
    }
  }
  if (problems.length === 0) {
    console.log(`the profile fits the model's published schema: inputs ${Object.keys(generator.profile.calls(SAMPLE_REQUEST)[0]?.input ?? {}).join(', ')}; output ${generator.profile.output === 'list' ? 'a list of images' : 'one image'}`);
    process.exit(process.exitCode ?? 0);
  }
  console.error(`the profile does not fit the model (${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}):`);
  for (const problem of problems) console.error(`- ${problem}`);
  process.exit(1);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `generator check failed: ${(error as Error).message}`);
  process.exit(1);
}
