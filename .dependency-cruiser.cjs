/**
 * Architecture boundaries (STYLE.md): core/ is a framework-free library; adapters/ never reach into a host.
 * `npm run lint` runs this over the source tree; test/tooling/boundary.test.ts proves it fails on a violation.
 */
const FRAMEWORKS = '(koa|@koa/.+|knex|knex-pglite|pg|@electric-sql/pglite|jose|stripe|inversify|reflect-metadata|webextension-polyfill|@mlc-ai/web-llm|pino|playwright-core)';

module.exports = {
  forbidden: [
    {
      name: 'core-not-to-adapters-or-hosts',
      comment: 'core/ is a library another host could reuse: it must not import adapters or a host (sdk, server, extension).',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^(adapters|sdk|server|extension)/' },
    },
    {
      name: 'core-not-to-frameworks',
      comment: 'core/ imports no framework or platform package; those belong in adapters/ or a host.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: `node_modules/${FRAMEWORKS}/` },
    },
    {
      name: 'core-not-to-node-builtins',
      comment: 'core/ runs in browsers too: no node: built-ins.',
      severity: 'error',
      from: { path: '^core/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'adapters-not-to-hosts',
      comment: 'adapters/ are called by core and composed by a host; they never import one.',
      severity: 'error',
      from: { path: '^adapters/' },
      to: { path: '^(sdk|server|extension)/' },
    },
    {
      name: 'console-only-through-the-api',
      comment: 'The console is a client of the public /v1 API like any other (STYLE.md): no server, adapter or core code.',
      severity: 'error',
      from: { path: '^console/' },
      to: { path: '^(server|adapters|core|sdk|extension)/' },
    },
    {
      name: 'no-unresolvable',
      comment: 'An import that does not resolve is a bug (or a missing dependency).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
