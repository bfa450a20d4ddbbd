import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { SCHEMA_FILE, schemaText, serverDocument } from '../../scripts/console/api-types.js';

describe('console/src/api/schema.d.ts', () => {
  it('is what openapi-typescript generates from the server\'s current OpenAPI document (regenerate: npx tsx scripts/console/api-types.ts)', async function () {
    this.timeout(120_000);
    const expected = await schemaText(await serverDocument());
    expect(readFileSync(SCHEMA_FILE, 'utf8') === expected, 'the committed API types are stale').to.equal(true);
  });
});
