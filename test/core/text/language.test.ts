import { expect } from 'chai';
import { detectLanguage } from '../../../core/text/language.js';
import { tokenize } from '../../../core/text/tokenize.js';

const CASES: [string, string][] = [
  ['The castle was built in the twelfth century and it is open to visitors.', 'en'],
  ['Le château a été construit au douzième siècle et il est ouvert aux visiteurs.', 'fr'],
  ['Die Burg wurde im zwölften Jahrhundert gebaut und ist für Besucher geöffnet.', 'de'],
  ['El castillo fue construido en el siglo doce y está abierto a los visitantes.', 'es'],
  ['O castelo foi construído no século doze e está aberto aos visitantes.', 'pt'],
  ['東京タワーは東京都港区にある電波塔です。', 'ja'],
  ['北京是中华人民共和国的首都。', 'zh'],
];

describe('detectLanguage', () => {
  for (const [text, lang] of CASES) {
    it(`says ${lang} when given "${text.slice(0, 30)}…"`, () => expect(detectLanguage(tokenize(text))).to.equal(lang));
  }

  it('returns the fallback when no word votes', () => {
    expect(detectLanguage(tokenize('xyzzy plugh 42'), 'fr')).to.equal('fr');
    expect(detectLanguage([])).to.equal('en');
  });
});
