/**
 * The offscreen document: the extension's one home for the local model. Chromium keeps it alive for as long as the
 * browser runs (an MV3 service worker is stopped after 30 s idle and cannot hold a WebGPU device reliably), so one
 * download and one GPU copy of the model serve every tab. Content scripts reach it through the background's relay.
 */
import { createWebLlmInference } from '../../adapters/webllm/create-web-llm-inference.js';
import { createLocalInferenceHost } from '../../adapters/webext/port-local-inference.js';
import { servePortStream } from '../../adapters/webext/port-stream.js';
import { onPortConnect, sendToExtension } from '../../adapters/webext/runtime-messaging.js';
import { OFFSCREEN_PORT_NAME, type OffscreenConfig, type OffscreenToBackground } from '../messages.js';

const host = createLocalInferenceHost(async (request) => {
  // Offscreen documents cannot read extension storage: the background hands over the user's weights location.
  const { modelBaseUrl } = await sendToExtension<OffscreenConfig>({ type: 'offscreen/config' } satisfies OffscreenToBackground);
  return createWebLlmInference({ ...request, ...(modelBaseUrl ? { modelBaseUrl } : {}) });
});

onPortConnect(OFFSCREEN_PORT_NAME, (port) => servePortStream(port, host));
void sendToExtension({ type: 'offscreen/ready' } satisfies OffscreenToBackground);
