/**
 * A stand-in test process for test/support/postgres.test.ts: starts a test cluster, prints its directory, URL and
 * postmaster pid as one JSON line, then waits until killed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startPostgres } from './postgres.js';

const pg = await startPostgres();
const postmaster = Number(readFileSync(join(pg.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
process.stdout.write(JSON.stringify({ dir: pg.dir, url: pg.url, postmaster }) + '\n');
setInterval(() => {}, 1 << 30);
