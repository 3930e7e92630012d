// A webhook receiver that verifies the Standard Webhooks headers svcd also sends
// (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`, keyed
// by the base64 part of the secret after `whsec_`) with the stock
// `standardwebhooks` library, which also refuses timestamps more than 5 minutes
// off. Environment: see webhook_server.mjs.
import { Webhook } from 'standardwebhooks';

import { serveWebhooks } from './webhook_server.mjs';

serveWebhooks('standardwebhooks', (raw, headers, secret) => new Webhook(secret).verify(raw, headers));
