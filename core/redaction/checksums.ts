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
