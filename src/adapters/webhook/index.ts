export { HttpsWebhookClient } from './https-webhook';
