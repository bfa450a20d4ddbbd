import { expect } from 'chai';
import { questionIntent } from '../../../core/grounding/intent.js';
import { questionLexicon } from '../../../core/grounding/lexicon.js';
import { loadAllLanguages } from '../../../core/text/load-language.js';
import { resourcesFor } from '../../../core/text/resources.js';
import { tokenize } from '../../../core/text/tokenize.js';
import type { Language } from '../../../core/text/language.js';

function intentOf(question: string, lang: Language = 'en', names: string[] = []) {
  const res = resourcesFor(lang);
  const it = questionIntent(tokenize(question), questionLexicon(res), (w) => res.isStopword(w), new Set(names));
  return { types: [...it.types].sort(), frame: [...it.frame], action: it.action, alternatives: it.alternatives ?? [] };
}

describe('questionIntent', () => {
  before(loadAllLanguages);

  const TYPES: [string, string[], Language?, string[]?][] = [
    ['How much does the Pro plan cost?', ['money']],
    ['How much is a room at the hotel?', ['money']],
    ['What is the entrance fee?', ['money']],
    ['Combien coûte le billet ?', ['money'], 'fr'],
    ['¿Cuánto cuesta el plan?', ['money'], 'es'],
    ['How much does the Xbox One X weigh?', ['amount']],
    ['How much did early peanut eating cut the allergy risk?', ['amount']],
    ['How many times more did the other nations pay for oil?', ['amount']],
    ['Who was Ralph in charge of being at war with?', []],
    ['Why is newly discovered oil sold at a higher price?', []],
    ['The energy policies are expensive quick fixes that ignore which facts?', []],
    ['What are the opening hours of the museum?', ['hours']],
    ['What time does the Louvre open on Sundays?', ['hours']],
    ['When does the library close?', ['hours', 'time']],
    ['When did Honda open its US assembly plants?', ['time']],
    ['Which oil producer is a close ally of the United States?', []],
    ['What is the Seattle Times piece about?', [], 'en', ['seattle', 'times']],
    ['What are the ferry times to the island?', ['hours']],
    ['À quelle heure ouvre le musée ?', ['hours'], 'fr'],
    ['美樹營地的民宿一晚多少錢？', ['money'], 'zh'],
    ['露營的話什麼時候可以進場搭帳？', ['time'], 'zh'],
    ['从台北开车到秀峦要多久？', ['amount'], 'zh'],
    ['今日のイソップ童話は何というお話ですか？', [], 'ja'],
    ['How do I contact you?', ['contact']],
    ['What is your phone number?', ['contact']],
    ['What is the support email address?', ['contact']],
    ['Comment contacter le service client ?', ['contact'], 'fr'],
    ['When was the first contact with Europeans?', ['time']],
    ['How long has the author been using email?', ['amount']],
    ['Who should I contact about a refund?', []],
    // A money verb after "how" and an auxiliary asks for a way of paying, not a price (mannerNotPrice, session 10).
    ['How do people pay?', []],
    ['How much do people pay?', ['money']],
  ];
  for (const [q, types, lang, names] of TYPES) {
    it(`reads ${types.length ? types.join(' + ') : 'no kind of answer'} when asked "${q}"`, () => {
      expect(intentOf(q, lang, names).types).to.deep.equal(types);
    });
  }

  it('takes the verb of a how-to question as its action, past a light verb and a single letter', () => {
    expect(intentOf('How do I cancel my subscription?').action).to.equal('cancel');
    expect(intentOf('How do I get a tourist visa for Kenya?').action).to.equal('tourist');
    expect(intentOf('Where can I buy a glass cloche?').action).to.equal('buy');
    expect(intentOf('Comment visiter le musée ?', 'fr').action).to.equal('visiter');
    expect(intentOf('怎么申请剑桥大学的奖学金？', 'zh').action).to.equal('申请');
    expect(intentOf('どうやって肉を取りますか', 'ja').action).to.equal('取り');
    expect(intentOf('イヌが吠えたら肉はどうなりましたか？', 'ja').action).to.equal(null);
    expect(intentOf('How do I turn off tab-to-search?')).to.deep.include({ action: 'turn', alternatives: ['switch', 'shut', 'disable', 'deactivate'] });
    expect(intentOf('How can I disable cookies?').alternatives).to.include.members(['turn', 'deactivate']);
    expect(intentOf('By what means is imperialism administered?').frame).to.not.include('means');
    expect(intentOf('What does the word taonga mean?').frame).to.include.members(['word', 'mean']);
    // "Where can I buy…" in Japanese: どこで (where, at) and the verb at the end.
    expect(intentOf('イソップ童話の本はどこで買えますか？', 'ja')).to.deep.include({ types: ['howto'], action: '買' });
  });

  it('frames the way to reach someone ("contact", "phone number"), not who is to be reached, and asks no how-to of it', () => {
    expect(intentOf('How can I contact support?')).to.deep.include({ frame: ['contact'], action: null });
    expect(intentOf('What is your support email address?').frame).to.deep.equal(['email', 'address']);
  });

  it('leaves the interrogative of an amount or a time out of the question content words', () => {
    expect(intentOf('How long was the demo?').frame).to.deep.equal(['long']);
    expect(intentOf('美樹營地的民宿一晚多少錢？', 'zh').frame).to.deep.equal(['多少錢']);
    expect(intentOf('露營的話什麼時候可以進場搭帳？', 'zh').frame).to.deep.equal(['什麼時候']);
  });
});
