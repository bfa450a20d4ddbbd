import type { ReadabilityCtor } from './readability-loader.js';

/** Readability's members overridden here (private by the library's `_` convention; webpack.config.js keeps their names). */
interface Privates {
  _isProbablyVisible(node: Element): boolean;
  _isValidByline(node: Element, matchString: string): boolean;
  _fixRelativeUris(articleContent: Element): void;
}
type PrivateCtor = new (doc: Document, options?: object) => Privates;

const made = new WeakMap<ReadabilityCtor, ReadabilityCtor>();

/**
 * Mozilla Readability (0.6) without work whose result Kit never reads, for the site crawl's many pages (issue 12 §7):
 * the article's text is the same, element for element (test/adapters/browser/lean-readability.test.ts compares both
 * on the extraction eval's 130 pages). Overridden, read from the library's source:
 * - `_isProbablyVisible` reads `node.style` (an inline style declaration built for every element of the page) only
 *   for an element with a `style` attribute: without one, its `display` and `visibility` are empty;
 * - `_isValidByline` tests the attributes and the class/id first and the text (`textContent` of every element of
 *   the page, the whole document's for `<html>`) only for a candidate, as the conjunction allows;
 * - `_fixRelativeUris` is skipped: it makes links and image URLs absolute (Kit keeps no URL of the article) and
 *   unwraps `javascript:` links into their text or a `<span>` (the same text either way);
 * - classes are kept (`keepClasses`): removing them walks the article again, and Kit's text ignores them.
 */
export function leanReadability(Base: ReadabilityCtor): ReadabilityCtor {
  let Lean = made.get(Base);
  if (Lean) return Lean;
  const Private = Base as unknown as PrivateCtor;
  class LeanReadability extends Private {
    constructor(doc: Document, options: object = {}) {
      super(doc, { ...options, keepClasses: true });
    }

    override _isProbablyVisible(node: Element): boolean {
      if (node.hasAttribute('style')) return super._isProbablyVisible(node);
      return !node.hasAttribute('hidden')
        && (node.getAttribute('aria-hidden') !== 'true' || Boolean(node.className && node.className.includes && node.className.includes('fallback-image')));
    }

    override _isValidByline(node: Element, matchString: string): boolean {
      const itemprop = node.getAttribute('itemprop');
      if (node.getAttribute('rel') !== 'author' && !itemprop?.includes('author') && !(this as unknown as { REGEXPS: { byline: RegExp } }).REGEXPS.byline.test(matchString)) return false;
      return super._isValidByline(node, matchString);
    }

    override _fixRelativeUris(): void {}
  }
  Lean = LeanReadability as unknown as ReadabilityCtor;
  made.set(Base, Lean);
  return Lean;
}
