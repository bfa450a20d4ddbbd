import { expect } from 'chai';
import { build, type Metafile } from 'esbuild';

// What a page pays for before knowing its language: the entries the SDK imports, bundled as the SDK build does
// (esbuild, code splitting), and every module reachable from each entry through static imports only.
const ENTRIES = ['core/text/index.ts', 'core/grounding/index.ts', 'core/retrieval/index.ts'];
const NON_ENGLISH = /@orama\/stemmers|@orama\/stopwords\/dist\/(?!en\.js)|core\/text\/common-words\/(?!en\.ts)|core\/text\/packs\/(?!en(-core)?\.ts)/;

async function bundle(entry: string): Promise<Metafile> {
  const r = await build({ entryPoints: [entry], bundle: true, splitting: true, format: 'esm', outdir: 'out', write: false, metafile: true, logLevel: 'silent' });
  return r.metafile;
}

function staticInputs(meta: Metafile, entry: string): string[] {
  const outputs = meta.outputs;
  const start = Object.keys(outputs).find((o) => outputs[o]!.entryPoint === entry)!;
  const seen = new Set<string>([start]);
  const queue = [start];
  while (queue.length > 0) {
    for (const imp of outputs[queue.pop()!]!.imports) {
      if (imp.kind === 'import-statement' && !imp.external && !seen.has(imp.path)) { seen.add(imp.path); queue.push(imp.path); }
    }
  }
  return [...seen].flatMap((o) => Object.keys(outputs[o]!.inputs));
}

describe('core/text import graph', () => {
  for (const entry of ENTRIES) {
    it(`loads English resources only, and each other language as its own lazy chunk, when importing ${entry}`, async function () {
      this.timeout(20_000);
      const meta = await bundle(entry);
      const eager = staticInputs(meta, entry);
      expect(eager.filter((i) => NON_ENGLISH.test(i))).to.deep.equal([]);
      expect(eager.some((i) => i.includes('porter2'))).to.equal(true);
      expect(eager).to.include('core/text/common-words/en.ts');
      // English's gate words (packs/en.ts) come with the gate only: reading and ranking pages does not carry them.
      expect(eager.includes('core/text/packs/en.ts')).to.equal(entry.startsWith('core/grounding/'));
      // One chunk a language pack, holding its stemmer, stopwords and common words, reached by a dynamic import.
      const fr = Object.values(meta.outputs).find((o) => o.entryPoint === 'core/text/packs/fr.ts')!;
      expect(Object.keys(fr.inputs)).to.include.members(['node_modules/@orama/stemmers/dist/fr.js', 'node_modules/@orama/stopwords/dist/fr.js', 'core/text/common-words/fr.ts']);
    });
  }
});
