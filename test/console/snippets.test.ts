import { expect } from 'chai';
import { snippet } from '../../console/src/views/snippets.js';

const base = { server: 'https://kit.example.com', apiKey: 'kit_pub_ABC', context: 'page', redact: 'none' } as const;

describe('snippet', () => {
  it('writes a script tag that loads the UMD bundle and initialises Kit with the options chosen', () => {
    expect(snippet('script', base)).to.equal(`<script src="https://kit.example.com/sdk/kit.js" async\n  onload="Kit.init({ apiKey: 'kit_pub_ABC' })"></script>`);
    expect(snippet('script', { ...base, context: 'site', redact: 'both' })).to.include(`Kit.init({ apiKey: 'kit_pub_ABC', context: 'site', redact: true })`);
  });

  it('writes an ES module import of kit.mjs', () => {
    const code = snippet('module', { ...base, redact: 'secrets' });
    expect(code).to.include(`import { init } from 'https://kit.example.com/sdk/kit.mjs';`);
    expect(code).to.include(`redact: 'secrets',`);
    // A module cannot see its own script tag: the snippet names the service (the script tag's needs no endpoint).
    expect(code).to.include(`endpoint: 'https://kit.example.com/v1',`);
    expect(snippet('react', base)).to.include(`endpoint: 'https://kit.example.com/v1',`);
    expect(snippet('script', base)).not.to.include('endpoint');
  });

  it('writes a React component that starts Kit on mount and destroys it on unmount', () => {
    const code = snippet('react', { ...base, redact: 'pii' });
    expect(code).to.include('export function KitAssistant()');
    expect(code).to.include("import(/* webpackIgnore: true */ 'https://kit.example.com/sdk/kit.mjs')");
    expect(code).to.include('kit?.destroy();');
    expect(code).to.include("redact: 'pii',");
  });
});
