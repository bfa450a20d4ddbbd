/** `prefix_` and 16 random base-36 pairs: what the API's id patterns accept (messages `msg_`, conversations `cnv_`). */
export const randomId = (prefix: string): string => `${prefix}_${Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(36)).join('')}`;
