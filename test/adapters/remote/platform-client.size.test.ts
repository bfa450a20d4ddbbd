import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { build } from 'esbuild';

/** Gzipped budget of the SDK's remote path (client, fetch transport, ALTCHA solver, remote engine, SSE reader, errors). */
const BUDGET_BYTES = 8 * 1024;

describe('createPlatformClient bundle size', () => {
  it(`stays within ${BUDGET_BYTES} bytes minified and gzipped together with the solver and the remote engine`, async () => {
    const entry = [
      "export { createPlatformClient } from './adapters/remote/platform-client.js';",
      "export { createFetchTransport } from './adapters/remote/fetch-transport.js';",
      "export { createAltchaSolver } from './adapters/remote/altcha-solver.js';",
      "export { createRemoteInference } from './adapters/remote/remote-inference.js';",
    ].join('\n');
    const result = await build({ stdin: { contents: entry, resolveDir: process.cwd(), loader: 'ts' }, bundle: true, minify: true, format: 'esm', target: 'es2022', write: false });
    const gzipped = gzipSync(result.outputFiles[0]?.text ?? '', { level: 9 }).length;
    expect(gzipped).to.be.greaterThan(1000); // the build really contains the client
    expect(gzipped).to.be.at.most(BUDGET_BYTES);
  });
});
