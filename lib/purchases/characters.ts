// The characters purchase-code cleaning knows by name (./normalise.ts applies the rules): look-alikes that are
// refused, invisible characters that are removed, controls and spaces that are refused, and what buyers wrap a
// UUID in. Tables of data only.

// Look-alikes: letters of other scripts (and Latin letters outside ASCII) that most fonts draw like a basic
// Latin letter or digit, and dashes that look like a hyphen. Each row: the character, what it passes for, its
// Unicode name. Not exhaustive (Unicode's confusables list has thousands): the letters people actually meet.

export type LookalikeRow = readonly [char: string, looksLike: string, name: string];

export const CYRILLIC: readonly LookalikeRow[] = [
  ["\u0430", "a", "small letter a"],
  ["\u0435", "e", "small letter ie"],
  ["\u0456", "i", "small letter Byelorussian-Ukrainian i"],
  ["\u0458", "j", "small letter je"],
  ["\u043e", "o", "small letter o"],
  ["\u0440", "p", "small letter er"],
  ["\u0441", "c", "small letter es"],
  ["\u0455", "s", "small letter dze"],
  ["\u0443", "y", "small letter u"],
  ["\u0445", "x", "small letter ha"],
  ["\u04bb", "h", "small letter shha"],
  ["\u0501", "d", "small letter komi de"],
  ["\u051b", "q", "small letter qa"],
  ["\u051d", "w", "small letter we"],
  ["\u04cf", "l", "small letter palochka"],
  ["\u0410", "A", "capital letter a"],
  ["\u0412", "B", "capital letter ve"],
  ["\u0415", "E", "capital letter ie"],
  ["\u0417", "3", "capital letter ze"],
  ["\u0406", "I", "capital letter Byelorussian-Ukrainian i"],
  ["\u0408", "J", "capital letter je"],
  ["\u041a", "K", "capital letter ka"],
  ["\u041c", "M", "capital letter em"],
  ["\u041d", "H", "capital letter en"],
  ["\u041e", "O", "capital letter o"],
  ["\u0420", "P", "capital letter er"],
  ["\u0421", "C", "capital letter es"],
  ["\u0405", "S", "capital letter dze"],
  ["\u0422", "T", "capital letter te"],
  ["\u0423", "Y", "capital letter u"],
  ["\u0425", "X", "capital letter ha"],
  ["\u04c0", "I", "letter palochka"],
  ["\u051a", "Q", "capital letter qa"],
  ["\u051c", "W", "capital letter we"],
];

export const GREEK: readonly LookalikeRow[] = [
  ["\u03b1", "a", "small letter alpha"],
  ["\u03b3", "y", "small letter gamma"],
  ["\u03b9", "i", "small letter iota"],
  ["\u03ba", "k", "small letter kappa"],
  ["\u03bd", "v", "small letter nu"],
  ["\u03bf", "o", "small letter omicron"],
  ["\u03c1", "p", "small letter rho"],
  ["\u03c5", "u", "small letter upsilon"],
  ["\u03c7", "x", "small letter chi"],
  ["\u0391", "A", "capital letter alpha"],
  ["\u0392", "B", "capital letter beta"],
  ["\u0395", "E", "capital letter epsilon"],
  ["\u0396", "Z", "capital letter zeta"],
  ["\u0397", "H", "capital letter eta"],
  ["\u0399", "I", "capital letter iota"],
  ["\u039a", "K", "capital letter kappa"],
  ["\u039c", "M", "capital letter mu"],
  ["\u039d", "N", "capital letter nu"],
  ["\u039f", "O", "capital letter omicron"],
  ["\u03a1", "P", "capital letter rho"],
  ["\u03a4", "T", "capital letter tau"],
  ["\u03a5", "Y", "capital letter upsilon"],
  ["\u03a7", "X", "capital letter chi"],
];

export const ARMENIAN: readonly LookalikeRow[] = [
  ["\u0570", "h", "small letter ho"],
  ["\u0578", "n", "small letter vo"],
  ["\u057d", "u", "small letter seh"],
  ["\u0581", "g", "small letter co"],
  ["\u0585", "o", "small letter oh"],
  ["\u0555", "O", "capital letter oh"],
  ["\u054f", "S", "capital letter tiwn"],
];

export const CHEROKEE: readonly LookalikeRow[] = [
  ["\u13a0", "D", "letter a"],
  ["\u13aa", "A", "letter go"],
  ["\u13ac", "E", "letter gv"],
  ["\u13bb", "H", "letter mi"],
  ["\u13b7", "M", "letter lu"],
  ["\u13a2", "T", "letter i"],
  ["\u13da", "S", "letter du"],
  ["\u13df", "C", "letter tli"],
];

// Latin, but not the basic Latin letter it looks like.
export const LATIN: readonly LookalikeRow[] = [
  ["\u0131", "i", "small letter dotless i"],
  ["\u0237", "j", "small letter dotless j"],
  ["\u0251", "a", "small letter alpha"],
  ["\u0261", "g", "small letter script g"],
  ["\u01c0", "l", "letter dental click"],
];

export const DASHES: readonly LookalikeRow[] = [
  ["\u2010", "-", "typographic hyphen"],
  ["\u2011", "-", "non-breaking hyphen"],
  ["\u2012", "-", "figure dash"],
  ["\u2013", "-", "en dash"],
  ["\u2014", "-", "em dash"],
  ["\u2015", "-", "horizontal bar"],
  ["\u2043", "-", "hyphen bullet"],
  ["\u2212", "-", "minus sign"],
  ["\u2796", "-", "heavy minus sign"],
  ["\u02d7", "-", "modifier letter minus sign"],
  ["\u058a", "-", "Armenian hyphen"],
  ["\u05be", "-", "Hebrew punctuation maqaf"],
  ["\u2e3a", "-", "two-em dash"],
  ["\u2e3b", "-", "three-em dash"],
  ["\ufe58", "-", "small em dash"],
];

// Invisible characters people meet (./normalise.ts removes any of category Cf or Default_Ignorable_Code_Point),
// named so the note is worth reading.

export const INVISIBLE_NAMES: Readonly<Record<number, string>> = {
  0x00ad: "soft hyphen",
  0x034f: "combining grapheme joiner",
  0x061c: "Arabic letter mark",
  0x115f: "Hangul choseong filler",
  0x1160: "Hangul jungseong filler",
  0x180e: "Mongolian vowel separator",
  0x200b: "zero-width space",
  0x200c: "zero-width non-joiner",
  0x200d: "zero-width joiner",
  0x200e: "left-to-right mark",
  0x200f: "right-to-left mark",
  0x202a: "left-to-right embedding",
  0x202b: "right-to-left embedding",
  0x202c: "pop directional formatting",
  0x202d: "left-to-right override",
  0x202e: "right-to-left override",
  0x2060: "word joiner",
  0x2061: "invisible function application",
  0x2062: "invisible times",
  0x2063: "invisible separator",
  0x2064: "invisible plus",
  0x2066: "left-to-right isolate",
  0x2067: "right-to-left isolate",
  0x2068: "first strong isolate",
  0x2069: "pop directional isolate",
  0x3164: "Hangul filler",
  0xfeff: "byte-order mark",
  0xffa0: "half-width Hangul filler",
};

// Controls and spaces: refused inside the code.

export const CONTROL_NAMES: Readonly<Record<number, string>> = {
  0x09: "tab",
  0x0a: "line break",
  0x0b: "vertical tab",
  0x0c: "form feed",
  0x0d: "carriage return",
  0x85: "next-line character",
};

export const SPACE_NAMES: Readonly<Record<number, string>> = {
  0x00a0: "no-break space",
  0x1680: "Ogham space mark",
  0x2007: "figure space",
  0x2009: "thin space",
  0x200a: "hair space",
  0x2028: "line separator",
  0x2029: "paragraph separator",
  0x202f: "narrow no-break space",
  0x205f: "medium mathematical space",
  0x3000: "ideographic space",
};

// What buyers wrap a UUID in (removed, with a note, before the code is read as one).
export const WRAPPERS: ReadonlyArray<readonly [open: string, close: string, what: string]> = [
  ["{", "}", "the braces around it"],
  ["(", ")", "the brackets around it"],
  ["<", ">", "the angle brackets around it"],
  ['"', '"', "the quotes around it"],
  ["'", "'", "the quotes around it"],
  ["\u201c", "\u201d", "the quotes around it"],
  ["\u2018", "\u2019", "the quotes around it"],
  ["`", "`", "the backticks around it"],
];
