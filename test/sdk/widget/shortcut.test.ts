import { expect } from 'chai';
import { parseShortcut } from '../../../sdk/widget/shortcut.js';

const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {}, target: { localName: string; isContentEditable?: boolean } = { localName: 'body' }) =>
  ({ key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods, composedPath: () => [target] }) as unknown as KeyboardEvent;

describe('parseShortcut', () => {
  it('is off without a shortcut', () => {
    for (const v of [null, undefined, '', '  ']) expect(parseShortcut(v)).to.equal(null);
  });

  it('matches mod+k as Ctrl+K off Apple devices, and only that combination', () => {
    const s = parseShortcut('mod+k')!;
    expect(s.aria).to.equal('Control+K');
    expect(s.matches(key('k', { ctrlKey: true }))).to.equal(true);
    expect(s.matches(key('K', { ctrlKey: true }))).to.equal(true);
    expect(s.matches(key('k'))).to.equal(false);
    expect(s.matches(key('k', { ctrlKey: true, altKey: true }))).to.equal(false);
    expect(s.matches(key('j', { ctrlKey: true }))).to.equal(false);
    // With a modifier it works while the visitor types in a field.
    expect(s.matches(key('k', { ctrlKey: true }, { localName: 'input' }))).to.equal(true);
  });

  it('never fires a bare key while the visitor types in a field or editable element', () => {
    const s = parseShortcut('/')!;
    expect(s.matches(key('/'))).to.equal(true);
    expect(s.matches(key('/', {}, { localName: 'textarea' }))).to.equal(false);
    expect(s.matches(key('/', {}, { localName: 'input' }))).to.equal(false);
    expect(s.matches(key('/', {}, { localName: 'div', isContentEditable: true }))).to.equal(false);
  });
});
