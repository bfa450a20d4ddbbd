/**
 * A postal address in a text: a number and a street ("14 Canal Street", "12 rue de la Paix", "Hauptstraße 5", "Calle
 * Mayor, 12"), or a postcode as written beside a place name ("Millbrook MB4 2QT", "Boulder, CO 80302", "75011
 * Paris"). Read by the grounding gate (a contact or address question needs one, or an email or a phone, where it is
 * answered) and by the extractive answerer ("where are you located?"). Case-sensitive and on one line: a street's
 * name is capitalised, and "1 terabyte hard drive" or "via the 2010 release" are no addresses.
 */
const both = (words: string): string => words.split(' ').map((w) => `[${w[0]!.toUpperCase()}${w[0]}]${w.slice(1)}`).join('|');
const STREET = new RegExp([
  // English: number, name, kind of street ("14 Canal Street", "221B Baker St").
  String.raw`\b\d{1,5}[A-Za-z]?[ \t]+(?:\p{Lu}[\p{L}'-]*[ \t]+){1,3}(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Way|Drive|Dr|Place|Pl|Square|Sq|Court|Ct|Terrace|Parkway|Highway|Hwy)\b`,
  // French, Spanish, Portuguese, Italian: number, kind of street, its name ("12 rue de la Paix", "5 avenue Foch").
  String.raw`\b\d{1,4}(?:[ \t]?(?:bis|ter))?,?[ \t]+(?:${both('rue avenue boulevard place chemin allée impasse quai route')})[ \t]+(?:de|du|des|d'|d’|la|le|\p{Lu})`,
  // German: the street's name, then its number ("Hauptstraße 5", "Am Marktplatz 12").
  String.raw`\b\p{Lu}\p{L}*(?:straße|strasse|gasse|platz|allee|damm)[ \t]+\d{1,4}[a-z]?\b`,
  // Spanish, Portuguese, Italian: kind of street, name, number ("Calle Mayor, 12", "Rua Augusta 100", "Via Roma 5").
  String.raw`\b(?:${both('calle avenida rua via viale piazza corso plaza paseo')})[ \t]+(?:(?:de|del|la|do|da|dos|das|della|di)[ \t]+|\p{Lu}[\p{L}'.-]*,?[ \t]+){1,4}(?:n[º°.]?[ \t]*)?\d{1,4}\b`,
].join('|'), 'u');
// Postcodes in capitals, as written: British ("MB4 2QT"), American after a state ("Boulder, CO 80302"), five digits
// before a town ("75011 Paris").
const POSTCODE = /\b[A-Z]{1,2}\d[A-Z\d]?[ \t]\d[A-Z]{2}\b|\b\p{Lu}\p{L}+,?[ \t]+[A-Z]{2}[ \t]+\d{5}(?:-\d{4})?\b|\b\d{5}[ \t]+\p{Lu}\p{L}+/u;

/** True when `text` holds a postal address (a street with its number, or a postcode). */
export function holdsPostalAddress(text: string): boolean {
  return STREET.test(text) || POSTCODE.test(text);
}
