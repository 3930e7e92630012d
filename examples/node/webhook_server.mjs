// The HTTPS server both webhook receivers share: it reads the raw body (the
// signature covers the exact bytes, so nothing may parse it first), asks the
// receiver's `verify` for the event, answers 200 when it verifies and 400 when
// it does not, and prints one JSON line per delivery on stdout.
//
// Reads SVC_WEBHOOK_SECRET (the endpoint's `whsec_...` secret, shown once at
// create), SVC_RECEIVER_CERT and SVC_RECEIVER_KEY (PEM files: svcd delivers
// only to https:// URLs), SVC_RECEIVER_PORT (default 8443) and
// SVC_RECEIVER_HOST (default 127.0.0.1).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';

/** Takes deliveries on any path (the examples register `/hooks`); `verify(rawBody, headers, secret)` returns
 *  the verified event envelope or throws. */
export function serveWebhooks(scheme, verify) {
  const secret = process.env.SVC_WEBHOOK_SECRET;
  if (!secret) throw new Error('set SVC_WEBHOOK_SECRET to the endpoint secret (whsec_...)');
  const tls = { cert: readFileSync(process.env.SVC_RECEIVER_CERT), key: readFileSync(process.env.SVC_RECEIVER_KEY) };
  const host = process.env.SVC_RECEIVER_HOST ?? '127.0.0.1';
  const port = Number(process.env.SVC_RECEIVER_PORT ?? '8443');

  const server = createServer(tls, (req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let event;
      try {
        event = verify(raw, req.headers, secret);
      } catch (e) {
        console.log(JSON.stringify({ verified: false, scheme, reason: e.message.split("\n")[0].trim() }));
        res.writeHead(400, { 'Content-Type': 'text/plain' }).end('signature rejected\n');
        return;
      }
      // Svc-Event-Id is stable across retries: a real receiver de-duplicates on it.
      const { id, type, synthetic } = event;
      console.log(JSON.stringify({ verified: true, scheme, id, type, synthetic }));
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok\n');
    });
  });
  server.listen(port, host, () => console.log(JSON.stringify({ listening: `https://${host}:${port}/hooks`, scheme })));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
