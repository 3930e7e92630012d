// A client of the main Svc flows on Node 20's built-in fetch (no package).
//
// Reads SVC_API_URL (default http://127.0.0.1:8080) and SVC_API_KEY (a write
// key), and optionally SVC_WEBHOOK_URL (an https:// receiver to register) and
// SVC_OUTPUT_DIR (where the PNG and the endpoint secret go; default
// ./svc-output). Prints one line per step; exits non-zero with the API's typed
// error when a step fails. See examples/README.md.
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled', 'expired', 'moderation_rejected']);
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A non-2xx answer, with the fields of the error envelope. */
class ApiError extends Error {
  constructor(status, body) {
    const error = body?.error ?? {};
    super(`${status} ${error.code}: ${error.message} (request ${error.request_id})`);
    this.status = status;
    this.code = error.code;
  }
}

class Client {
  constructor(baseUrl, apiKey) {
    this.baseUrl = baseUrl.replace(/\/$/, '');
    this.apiKey = apiKey;
  }

  /** Sends one request; returns { body, headers }. Waits out a 429 as its
   *  Retry-After says (rate limits are per team). */
  async request(method, path, body, headers = {}) {
    const init = {
      method,
      headers: { 'X-Api-Key': this.apiKey, Accept: 'application/json', ...headers },
    };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    for (let attempt = 0; attempt < 5; ++attempt) {
      const answer = await fetch(this.baseUrl + path, init);
      const text = await answer.text();
      let json;
      try {
        json = JSON.parse(text);
      } catch {
        // Not Svc's envelope: a proxy's page, say.
        json = { error: { message: text.slice(0, 200) } };
      }
      if (answer.ok) return { body: json, headers: answer.headers };
      if (answer.status !== 429) throw new ApiError(answer.status, json);
      const seconds = Number(answer.headers.get('Retry-After') ?? '1');
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
    throw new ApiError(429, { error: { code: 'too_many_requests', message: 'still limited after 5 tries' } });
  }

  createImage(prompt, idempotencyKey, fields = {}) {
    return this.request('POST', '/v1/images', { prompt, ...fields }, { 'Idempotency-Key': idempotencyKey });
  }

  /** Long-polls with `Prefer: wait=30` (the server holds the answer until the
   *  job ends) until the image reaches a terminal status. */
  async waitForImage(id, timeoutMs = 120000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { body } = await this.request('GET', `/v1/images/${id}`, undefined, { Prefer: 'wait=30' });
      if (TERMINAL.has(body.status) || Date.now() > deadline) return body;
    }
  }

  /** Every image of the team, newest first, following the cursor. */
  async listImages(pageSize) {
    const images = [];
    let pages = 0;
    let cursor;
    for (;;) {
      const query = `?limit=${pageSize}` + (cursor ? `&starting_after=${cursor}` : '');
      const { body } = await this.request('GET', '/v1/images' + query);
      images.push(...body.data);
      ++pages;
      if (!body.has_more) return { images, pages };
      cursor = body.data.at(-1).id;
    }
  }
}

/** Output URLs are signed: a plain GET without the key. */
async function download(url, path) {
  const answer = await fetch(url);
  if (!answer.ok) throw new Error(`GET ${url}: ${answer.status}`);
  const bytes = Buffer.from(await answer.arrayBuffer());
  writeFileSync(path, bytes);
  return { bytes: bytes.length, isPng: bytes.subarray(0, PNG_MAGIC.length).equals(PNG_MAGIC) };
}

async function main() {
  const apiKey = process.env.SVC_API_KEY;
  if (!apiKey) throw new Error('set SVC_API_KEY to a write key (svcctl key create --team TEAM --scope write)');
  const client = new Client(process.env.SVC_API_URL ?? 'http://127.0.0.1:8080', apiKey);
  const outDir = process.env.SVC_OUTPUT_DIR ?? 'svc-output';
  mkdirSync(outDir, { recursive: true });

  const { body: balance } = await client.request('GET', '/v1/balance');
  console.log(`balance: ${balance.available} credits available, ${balance.held} held`);

  // One key per logical operation: a retry after a timeout or a dropped
  // connection then cannot create (and pay for) a second image.
  const key = randomUUID();
  const prompt = 'a lighthouse on a cliff at dusk, watercolor';
  const size = { width: 256, height: 256 };
  let { body: image } = await client.createImage(prompt, key, size);
  console.log(`created ${image.id} (${image.status}, ${image.cost.credits} credits held)`);
  const again = await client.createImage(prompt, key, size);
  console.log(`retried with the same Idempotency-Key: ${again.body.id}, ` +
    `Idempotent-Replayed: ${again.headers.get('Idempotent-Replayed')}`);

  image = await client.waitForImage(image.id);
  console.log(`${image.id} ${image.status}`);
  if (image.status !== 'succeeded') {
    throw new Error(`the image ended ${image.status}: ${JSON.stringify(image.failure)}`);
  }
  const path = join(outDir, `${image.id}.png`);
  const file = await download(image.output_urls[0], path);
  if (!file.isPng) throw new Error(`${path} is not a PNG`);
  console.log(`downloaded ${path} (${file.bytes} bytes, PNG)`);

  const { body: other } = await client.createImage('a storm over the sea', randomUUID(), size);
  try {
    const { body: cancelled } = await client.request('POST', `/v1/images/${other.id}/cancel`);
    console.log(`cancelled ${cancelled.id} (${cancelled.status}, credits ${cancelled.cost.status})`);
  } catch (e) {
    if (e.code !== 'invalid_state') throw e;
    console.log(`${other.id} had already finished, so it could not be cancelled (${e.code})`);
  }

  const { images, pages } = await client.listImages(1);
  console.log(`listed ${images.length} images in ${pages} pages`);

  const { body: usage } = await client.request('GET', '/v1/usage');
  console.log(`usage ${usage.start}..${usage.end}: ${usage.total.credits_charged} credits charged, ` +
    `${usage.total.images} images`);

  const webhookUrl = process.env.SVC_WEBHOOK_URL;
  if (webhookUrl) {
    const { body: endpoint } = await client.request('POST', '/v1/webhook_endpoints',
      { url: webhookUrl, events: ['image.completed', 'image.failed'] });
    // The secret is shown only in this answer: keep it where the receiver can
    // read it, and never in a log.
    const secretPath = join(outDir, `${endpoint.id}.secret`);
    writeFileSync(secretPath, endpoint.secret, { mode: 0o600 });
    console.log(`registered ${endpoint.id} for ${endpoint.events.join(', ')} at ${endpoint.url} ` +
      `(secret ${endpoint.secret_preview} saved to ${secretPath})`);
  }
}

main().catch((e) => {
  console.error(`error: ${e.message}`);
  process.exit(1);
});
