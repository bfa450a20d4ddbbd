import { expect } from 'chai';
import { createPhoneFinder, findPhones } from '../../../core/redaction/phone.js';
import type { Detection } from '../../../core/redaction/types.js';

function phones(find: (t: string, o: Detection[]) => void, text: string): string[] {
  const out: Detection[] = [];
  find(text, out);
  return out.map((d) => text.slice(d.start, d.end));
}

describe('createPhoneFinder', () => {
  it('validates national numbers against the configured regions only', () => {
    const text = 'Tel: 030 90182077';
    expect(phones(findPhones, text)).to.deep.equal(['030 90182077']);
    expect(phones(createPhoneFinder({ regions: ['US'] }), text)).to.deep.equal([]);
  });

  it('accepts any possible number behind a country code whatever the regions', () => {
    expect(phones(createPhoneFinder({ regions: ['US'] }), 'ring +49 30 90182077 now')).to.deep.equal(['+49 30 90182077']);
  });

  it('needs a phone word for a number laid out in fewer than three groups that no number plan prints that way', () => {
    // Berlin numbers print as "030 90182077"; "0309 0182077" is grouped as no region formats it.
    expect(phones(findPhones, 'ref 0309 0182077')).to.deep.equal([]);
    expect(phones(findPhones, 'call 0309 0182077')).to.deep.equal(['0309 0182077']);
    expect(phones(createPhoneFinder({ planLayout: false }), 'ref 030 90182077')).to.deep.equal([]);
    expect(phones(createPhoneFinder({ planLayout: false }), 'call 030 90182077')).to.deep.equal(['030 90182077']);
  });

  it('masks a national number without a phone word when it is grouped as its number plan prints it', () => {
    expect(phones(findPhones, 'ref 030 90182077')).to.deep.equal(['030 90182077']);
    expect(phones(findPhones, 'ref 737 219 628')).to.deep.equal(['737 219 628']); // a Czech or Polish mobile
    expect(phones(findPhones, 'ref 07624 369230')).to.deep.equal(['07624 369230']);
    // Valid in the loose (min) sense somewhere and grouped like a Korean number, but no type of any region accepts it.
    expect(phones(findPhones, 'ISSN 1179-5085')).to.deep.equal([]);
    expect(phones(findPhones, 'population 123 456 789')).to.deep.equal([]);
  });

  it('decides the phone word for each occurrence of a number, not once per number', () => {
    const text = 'ref 0309 0182077 in the table above; please call 0309 0182077';
    const out: Detection[] = [];
    findPhones(text, out);
    expect(out.map((d) => d.start)).to.deep.equal([text.lastIndexOf('0309')]);
  });

  it('masks phone-like layouts without validating once the parse budget is spent', () => {
    const find = createPhoneFinder({ maxParses: 0 });
    // 000-000-0000 is valid nowhere; past the budget, layout and a phone word are enough (fail closed).
    expect(phones(find, 'Tel 000-000-0000 and ref 00 000')).to.deep.equal(['000-000-0000']);
    expect(phones(findPhones, 'Tel 000-000-0000')).to.deep.equal([]);
  });

  it('reads each side of a column gap as its own candidate', () => {
    // Runs of spaces separate numbers (table columns); the scan must not swallow a phone into a rejected run.
    expect(phones(findPhones, 'ref 606  0049 30 901820')).to.deep.equal(['0049 30 901820']);
    expect(phones(findPhones, 'Tel 030 901820  2 lines')).to.deep.equal(['030 901820']);
    expect(phones(findPhones, 'Tel 030 901820    030 901821')).to.deep.equal(['030 901820', '030 901821']);
    expect(phones(findPhones, '2014  2015  2016  2017')).to.deep.equal([]);
  });
});
