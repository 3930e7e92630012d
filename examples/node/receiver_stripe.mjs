// A webhook receiver that verifies `Svc-Webhook-Signature` with the stock
// `stripe` library: the header has Stripe's shape (`t=<unix>,v1=<hex HMAC-SHA256
// of "t.body">`, the whole `whsec_...` string as key), so
// `Stripe.webhooks.constructEvent` checks it, with its 5-minute tolerance on t.
// Environment: see webhook_server.mjs.
import Stripe from 'stripe';

import { serveWebhooks } from './webhook_server.mjs';

serveWebhooks('stripe', (raw, headers, secret) =>
  Stripe.webhooks.constructEvent(raw, headers['svc-webhook-signature'] ?? '', secret));
