// The address a Cog container is started with (`--upload-url`). Cog 0.13.6 PUTs each output file of an
// asynchronous prediction to `<this>/<file name>`, raw bytes with the file's Content-Type and the prediction's id
// in `X-Prediction-ID`, and reports the answer's Location (its query stripped) as the output
// (cog/files.py put_file_to_signed_endpoint, cog/server/runner.py). Started without one, it reports the files'
// paths inside the container, which nobody outside can read. The shop's route behind it: modules/production/generator-webhook.ts.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const GENERATOR_UPLOAD_PATH = '/api/generator/uploads';

/**
 * The token in the upload address. The container names the prediction only in a header, so the token vouches
 * for the container, not for one prediction (the route takes files only for a prediction a job waits for).
 */
export function uploadToken(secret: string): string {
  return createHmac('sha256', secret).update('cog-upload-url').digest('base64url');
}

export function verifyUploadToken(secret: string, token: string): boolean {
  const expected = Buffer.from(uploadToken(secret));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function cogUploadUrl(publicUrl: string, secret: string): string {
  return `${publicUrl}${GENERATOR_UPLOAD_PATH}/${uploadToken(secret)}/`;
}

/**
 * What is wrong with the address for a real container: the pictures of customers' faces would cross the
 * network unencrypted (and the issue that asked for this route reports Cog refusing a plain http address). A
 * container on the shop's own machine (localhost) is left alone.
 */
export function uploadUrlProblem(publicUrl: string): string | null {
  const url = new URL(publicUrl);
  if (url.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) return null;
  return `PUBLIC_URL (${publicUrl}) is not https: the container would upload customers' pictures to it unencrypted. Serve the shop over https (README, Running in production)`;
}

/** The command that starts a model image with the shop's upload address (Cog's docs/deploy.md). */
export function cogDockerCommand(model: string, uploadUrl: string): string {
  return `docker run -d -p 5000:5000 --gpus all r8.im/${model}@sha256:<version> python -m cog.server.http --upload-url ${uploadUrl}`;
}
