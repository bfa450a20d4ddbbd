export { encodeSse, encodeSseJson, encodeSseComment, type SseMessage } from './encode-sse.js';
