import { expect } from 'chai';
import { bech32Valid, ibanMod97Valid, luhnValid } from '../../../core/redaction/checksums.js';

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

describe('bech32Valid', () => {
  // BIP-173 test vectors, and an age key with its last character changed.
  for (const [value, valid] of [['A12UEL5L', true], ['a12uel5l', true], ['abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw', true], ['A12UEL5M', false], ['abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxx', false], ['pzry9x0s0muk', false], [`AGE-SECRET-KEY-1${'Q'.repeat(58)}`, false], [`AGE-SECRET-KEY-1${'Q'.repeat(52)}8H00W3`, true], [`AGE-SECRET-KEY-1${'Q'.repeat(52)}8H00W4`, false]] as const) {
    it(`says ${valid} for ${value.length > 24 ? value.slice(0, 24) + '…' : value}`, () => expect(bech32Valid(value)).to.equal(valid));
  }
});
