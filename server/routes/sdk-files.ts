import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { SDK_VERSION } from '../../sdk/version.js';
import { findStaticFile } from '../http/static-file.js';

/** Cache lifetime of the unversioned SDK entry scripts (a release must reach sites within minutes). */
export const SDK_ENTRY_MAX_AGE_SECONDS = 300;
/** Cache-Control of everything that never changes under its URL: versioned paths and content-hashed chunks. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** What GET /sdk/manifest.json says about the SDK this server serves. */
export interface SdkManifest {
  readonly version: string;
  /** The versioned URL path of the UMD build (`<script>`), its SRI hash, and the same for the ES module build. */
  readonly script: { readonly path: string; readonly integrity: string } | null;
  readonly module: { readonly path: string; readonly integrity: string } | null;
}

/** A file to send: where it is and how long it may be cached. */
export interface SdkFile {
  readonly path: string;
  readonly mtimeMs: number;
  readonly cacheControl: string;
}

/**
 * The inline stub of the snippet (docs/sdk.md): `Kit.init(…)` and the instance's methods may be called before the
 * script arrives; each call is queued with the promise it returned, and the SDK replays the queue when it loads.
 */
export const QUEUE_STUB = "!function(w){if(w.Kit)return;var q=[];w.Kit={q:q,init:function(){var i={},m=function(n){return function(){var a=[].slice.call(arguments);return new Promise(function(r,j){q.push([i,n,a,r,j])})}};['ask','open','close','on','feedback','newConversation','destroy'].forEach(function(n){i[n]=m(n)});q.push([i,'init',[].slice.call(arguments)]);return i}}}(window);";

/**
 * The SDK's files under /sdk/: `kit.js` / `kit.mjs` (short cache), `v{version}/…` (the same files, immutable: the
 * URL changes with each release), content-hashed `chunks/…` (immutable), and `manifest.json` with the SRI hashes.
 * A version this server does not have is a 404, never another build under the wrong name.
 */
export function createSdkFiles(dir: string) {
  const hashes = new Map<string, { mtimeMs: number; integrity: string }>();
  const find = (relative: string) => findStaticFile(dir, relative);
  async function integrity(name: string): Promise<string | null> {
    const file = await find(name);
    if (!file) return null;
    const known = hashes.get(name);
    if (known && known.mtimeMs === file.mtimeMs) return known.integrity;
    const value = `sha384-${createHash('sha384').update(await readFile(file.path)).digest('base64')}`;
    hashes.set(name, { mtimeMs: file.mtimeMs, integrity: value });
    return value;
  }
  return {
    version: SDK_VERSION,
    /** The file for /sdk/<relative>, or null (404). */
    async resolve(relative: string): Promise<SdkFile | null> {
      const versioned = /^v([0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.-]+)?)\/(.+)$/.exec(relative);
      if (versioned) {
        if (versioned[1] !== SDK_VERSION) return null;
        const file = await find(versioned[2]!);
        return file && { ...file, cacheControl: IMMUTABLE };
      }
      const file = await find(relative);
      if (!file) return null;
      return { ...file, cacheControl: relative.startsWith('chunks/') ? IMMUTABLE : `public, max-age=${SDK_ENTRY_MAX_AGE_SECONDS}` };
    },
    async manifest(): Promise<SdkManifest> {
      const [script, module] = await Promise.all([integrity('kit.js'), integrity('kit.mjs')]);
      const base = `/sdk/v${SDK_VERSION}`;
      return {
        version: SDK_VERSION,
        script: script ? { path: `${base}/kit.js`, integrity: script } : null,
        module: module ? { path: `${base}/kit.mjs`, integrity: module } : null,
      };
    },
  };
}

/** The snippet a site pastes: the queue stub, then the versioned script with its SRI hash (`origin` is the server). */
export function sdkSnippet(origin: string, manifest: SdkManifest, apiKey = 'kit_pub_…'): string | null {
  if (!manifest.script) return null;
  return [
    `<script>${QUEUE_STUB}Kit.init({ apiKey: '${apiKey}' });</script>`,
    `<script async src="${origin}${manifest.script.path}" integrity="${manifest.script.integrity}" crossorigin="anonymous"></script>`,
  ].join('\n');
}
