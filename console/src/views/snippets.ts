/** The snippet kinds the install view generates. */
export type SnippetKind = 'script' | 'module' | 'react';

/** Options of the generated snippet (the rest comes from the assistant settings, no redeploy needed). */
export interface SnippetOptions {
  readonly server: string;
  readonly apiKey: string;
  readonly context: 'page' | 'site';
  readonly redact: 'none' | 'secrets' | 'pii' | 'both';
}

// A module cannot see its own script tag (docs/sdk.md), so the module and React snippets name the service.
function optionParts(o: SnippetOptions, module = false): string[] {
  const parts = [`apiKey: '${o.apiKey}'`];
  if (module) parts.push(`endpoint: '${o.server}/v1'`);
  if (o.context === 'site') parts.push(`context: 'site'`);
  if (o.redact === 'both') parts.push('redact: true');
  else if (o.redact !== 'none') parts.push(`redact: '${o.redact}'`);
  return parts;
}

function initOptions(o: SnippetOptions, indent: string): string {
  return `{\n${optionParts(o, true).map((p) => `${indent}  ${p},`).join('\n')}\n${indent}}`;
}

/** The code an owner pastes into a site. Values are the owner's own key and server, not user input of visitors. */
export function snippet(kind: SnippetKind, o: SnippetOptions): string {
  if (kind === 'script') {
    return `<script src="${o.server}/sdk/kit.js" async\n  onload="Kit.init({ ${optionParts(o).join(', ')} })"></script>`;
  }
  if (kind === 'module') {
    return `<script type="module">\n  import { init } from '${o.server}/sdk/kit.mjs';\n  init(${initOptions(o, '  ')});\n</script>`;
  }
  return `import { useEffect } from 'react';

/** Kit's assistant on every page that renders it; removed when it unmounts. */
export function KitAssistant() {
  useEffect(() => {
    let kit;
    let cancelled = false;
    import(/* webpackIgnore: true */ '${o.server}/sdk/kit.mjs').then(({ init }) => {
      if (!cancelled) kit = init(${initOptions(o, '        ')});
    });
    return () => {
      cancelled = true;
      kit?.destroy();
    };
  }, []);
  return null;
}`;
}
