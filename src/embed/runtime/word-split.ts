/**
 * The classes of UTF-16 units in the library's Whitespace pre-tokenizer, `text.match(/\w+|[^\w\s]+/g)` (no `u`
 * flag: it reads code units, so both halves of a surrogate pair are "other"). A table look-up per unit in place of
 * the regular expression; test/embed/fused-tokenizer.test.ts checks all 65,536 units against `\w` and `\s`.
 */
export const OTHER = 0;
export const WORD = 1;
export const SPACE = 2;

/** `\s`: ECMAScript's WhiteSpace and LineTerminator units. */
const SPACE_UNITS = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008,
  0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
];

/** OTHER, WORD or SPACE for each UTF-16 unit. */
export const UNIT_CLASS: Uint8Array = (() => {
  const table = new Uint8Array(0x10000);
  for (const [from, to] of [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
    [0x5f, 0x5f],
  ]) {
    table.fill(WORD, from, to + 1);
  }
  for (const unit of SPACE_UNITS) table[unit] = SPACE;
  return table;
})();
