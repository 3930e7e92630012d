// OpenAI's own Node SDK (the `openai` package, pinned in package.json) against
// Svc's OpenAI-compatible images routes: only the base URL and the key change.
//
//   node images.mjs BASE_URL API_KEY [OUT_DIR] [--slow-server]
//
// BASE_URL is Svc's (http://127.0.0.1:8080), API_KEY a write key of a team.
// Without --slow-server: a generation answered with the PNG inline (saved to
// OUT_DIR/generation.png), one answered with signed URLs (printed), an edit of
// the saved PNG (OUT_DIR/edit.png), and a refused model, caught as the SDK's
// APIError. With --slow-server, for a server whose renders outlast its
// --openai-wait: the 504 that names the still-running job, then a request
// with an Idempotency-Key that the SDK retries until the same job is done.
// One line per step; exits non-zero when a step goes otherwise.
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import OpenAI, { toFile } from 'openai';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const [baseUrl, apiKey, outDir = '.', mode] = process.argv.slice(2);
if (!baseUrl || !apiKey) {
  console.error('usage: node images.mjs BASE_URL API_KEY [OUT_DIR] [--slow-server]');
  process.exit(2);
}
// The SDK appends `/images/generations` to its base URL, as it does to OpenAI's `https://api.openai.com/v1`.
const sdkOptions = { apiKey, baseURL: `${baseUrl.replace(/\/$/, '')}/v1` };

/** Width and height from a PNG's IHDR; throws for anything that is no PNG. */
function pngSize(bytes) {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_MAGIC)) throw new Error('not a PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

/** The first output of an answer in b64_json, decoded and saved as OUT_DIR/name. */
function saveFirst(answer, name) {
  const bytes = Buffer.from(answer.data[0].b64_json, 'base64');
  writeFileSync(join(outDir, name), bytes);
  return `PNG ${pngSize(bytes)}, saved ${name}`;
}

/** What the SDK made of an error answer: its class, and the fields of Svc's envelope. */
function describeError(err) {
  if (!(err instanceof OpenAI.APIError)) throw err;
  return `${err.constructor.name} ${err.status} ${err.code} param=${err.param ?? ''}: ${err.error?.message}`;
}

// Answers at once when the server renders in time; retries are the caller's choice.
async function mainFlows() {
  const client = new OpenAI({ ...sdkOptions, maxRetries: 0 });
  const inline = await client.images.generate({
    prompt: 'a lighthouse on a cliff at dusk',
    size: '320x256',
    response_format: 'b64_json',
    quality: 'hd', // OpenAI's own fields are accepted and ignored
    user: 'example-user',
  });
  console.log(`generate b64_json: ${inline.data.length} image, ${saveFirst(inline, 'generation.png')}`);

  const linked = await client.images.generate({ prompt: 'two paper boats', n: 2, size: '256x256' });
  console.log(`generate url: ${linked.data.length} images`);
  for (const { url } of linked.data) console.log(`url: ${url}`);

  const edited = await client.images.edit({
    image: await toFile(Buffer.from(inline.data[0].b64_json, 'base64'), 'generation.png', { type: 'image/png' }),
    prompt: 'the same lighthouse in snow',
    size: '256x256',
    response_format: 'b64_json',
  });
  console.log(`edit b64_json: ${edited.data.length} image, ${saveFirst(edited, 'edit.png')}`);

  try {
    await client.images.generate({ model: 'dall-e-3', prompt: 'a cat' });
    throw new Error('an unknown model was accepted');
  } catch (err) {
    console.log(`unknown model: ${describeError(err)}`);
  }
}

// The server's --openai-wait is shorter than its renders.
async function slowServerFlows() {
  const once = new OpenAI({ ...sdkOptions, maxRetries: 0 });
  try {
    await once.images.generate({ prompt: 'a slow sunrise', size: '256x256' });
    throw new Error('a render longer than --openai-wait was answered with its outputs');
  } catch (err) {
    console.log(`timeout: ${describeError(err)}`);
  }
  // The SDK retries a 5xx by itself; under one Idempotency-Key each retry
  // waits for the same job again instead of starting (and paying for) another.
  const patient = new OpenAI({ ...sdkOptions, maxRetries: 8 });
  const answer = await patient.images.generate(
    { prompt: 'a slow sunset', size: '256x256', response_format: 'b64_json' },
    { headers: { 'Idempotency-Key': `openai-example-${randomUUID()}` } },
  );
  console.log(`retried with Idempotency-Key: ${answer.data.length} image, ${saveFirst(answer, 'retried.png')}`);
}

try {
  mkdirSync(outDir, { recursive: true });
  await (mode === '--slow-server' ? slowServerFlows() : mainFlows());
  console.log('done');
} catch (err) {
  console.error(`failed: ${err instanceof OpenAI.APIError ? describeError(err) : err.stack}`);
  process.exit(1);
}
