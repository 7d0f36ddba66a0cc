/**
 * Text matching shared by the current and the legacy API: the name search of docs/interface.md#name-search splits a
 * query into words on space, `-`, `_`, `,` and `.`, and compares them ignoring case and accents.
 */

/** Lower-cased, accents removed, split on the delimiters of the search rule. */
export function splitWords(text: string): string[] {
  return fold(text)
    .split(/[\s\-_,.]+/)
    .filter((w) => w.length > 0);
}

export function fold(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[đðłøæœßıþ]/g, (c) => LETTERS_WITHOUT_DECOMPOSITION[c]!);
}

/** Letters that NFD leaves whole: "dang" must find "Đặng", and it must sort among the d's. */
const LETTERS_WITHOUT_DECOMPOSITION: Record<string, string> = {
  đ: "d",
  ð: "d",
  ł: "l",
  ø: "o",
  æ: "ae",
  œ: "oe",
  ß: "ss",
  ı: "i",
  þ: "th",
};
