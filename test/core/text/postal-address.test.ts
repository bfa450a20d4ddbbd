import { expect } from 'chai';
import { holdsPostalAddress } from '../../../core/text/postal-address.js';

describe('holdsPostalAddress', () => {
  it('finds a street with its number or a postcode, in the forms of several countries', () => {
    for (const t of ['Rosemary & Rye, 14 Canal Street, Millbrook.', 'Visit us at 221B Baker St', 'Visit us at 1600 Pennsylvania Avenue NW', 'Boulder, CO 80302',
      'Millbrook MB4 2QT', '12 rue de la Paix', '75002 Paris', '5 avenue Foch', 'Hauptstraße 5', 'Am Marktplatz 12', 'Calle Mayor, 12', 'Rua Augusta 100', 'Via Roma 5']) {
      expect(holdsPostalAddress(t), t).to.equal(true);
    }
  });

  it('finds none in numbers beside ordinary words', () => {
    for (const t of ['1 terabyte hard drive', '4K Blu-ray drive', 'via the 2010 release', 'during 2010 the team grew', 'Step 5\n\nGently place the pot on the stove',
      'In 2019 Apple shipped it', 'the top 5 places to visit', 'It weighs 12 kg and costs $40.']) {
      expect(holdsPostalAddress(t), t).to.equal(false);
    }
  });
});
