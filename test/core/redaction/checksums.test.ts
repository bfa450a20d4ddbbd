import { expect } from 'chai';
import { ibanMod97Valid, luhnValid } from '../../../core/redaction/checksums.js';

describe('luhnValid', () => {
  for (const [digits, valid] of [['4111111111111111', true], ['4111111111111112', false], ['378282246310005', true], ['79927398713', true], ['79927398710', false], ['0', true]] as const) {
    it(`says ${valid} for ${digits}`, () => expect(luhnValid(digits)).to.equal(valid));
  }
});

describe('ibanMod97Valid', () => {
  for (const [iban, valid] of [['DE89370400440532013000', true], ['GB82WEST12345698765432', true], ['FR1420041010050500013M02606', true], ['DE89370400440532013001', false], ['GB82WEST1234569876543!', false]] as const) {
    it(`says ${valid} for ${iban}`, () => expect(ibanMod97Valid(iban)).to.equal(valid));
  }
});
