/** Luhn (mod 10) check over a string of ASCII digits. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** ISO 13616 mod-97 check over an upper-case IBAN without spaces (country, check digits, BBAN). */
export function ibanMod97Valid(iban: string): boolean {
  let rem = 0;
  // Rotate the first four characters to the end, map A..Z to 10..35, and reduce digit by digit.
  for (let k = 0; k < iban.length; k++) {
    const c = iban.charCodeAt((k + 4) % iban.length);
    if (c >= 48 && c <= 57) rem = (rem * 10 + (c - 48)) % 97;
    else if (c >= 65 && c <= 90) rem = (rem * 100 + (c - 55)) % 97;
    else return false;
  }
  return rem === 1;
}

const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32_GENERATORS = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

/**
 * BIP-173 Bech32 checksum over a single-case string `<hrp>1<data><6 checksum characters>` (age keys:
 * `AGE-SECRET-KEY-1…`). A string typed by hand (a placeholder of one repeated character) passes with odds of about
 * one in a billion.
 */
export function bech32Valid(value: string): boolean {
  const s = value.toLowerCase();
  const sep = s.lastIndexOf('1');
  if (sep < 1 || s.length - sep < 7) return false;
  let chk = 1;
  const step = (v: number): void => {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= BECH32_GENERATORS[i]!;
  };
  for (let i = 0; i < sep; i++) step(s.charCodeAt(i) >>> 5);
  step(0);
  for (let i = 0; i < sep; i++) step(s.charCodeAt(i) & 31);
  for (let i = sep + 1; i < s.length; i++) {
    const v = BECH32_CHARSET.indexOf(s[i]!);
    if (v < 0) return false;
    step(v);
  }
  return chk === 1;
}
