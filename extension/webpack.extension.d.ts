import type { Configuration, RuleSetRule, ResolveOptions } from 'webpack';

/** The extension's webpack configurations (content script, extension pages); see webpack.extension.js. */
export default function extensionConfig(options: {
  mode: 'development' | 'production' | 'none';
  root: string;
  typescript: RuleSetRule;
  resolveTs: ResolveOptions;
  outDir?: string;
  zipPath?: string;
}): Configuration[];
