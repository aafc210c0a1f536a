// ascii.mjs — JavaScript source made pure ASCII, for classic scripts that a page of any encoding
// loads: a classic <script src> without a charset on its response is decoded in the page's own
// encoding, so a lesson without <meta charset="utf-8"> (read as windows-1252) would show "·" as
// "Â·" if the script held UTF-8 bytes. Module scripts and workers are always read as UTF-8; these
// files are not.
//
// Every character above U+007F becomes \uXXXX (UTF-16 code units; a character beyond U+FFFF
// becomes its surrogate pair, \uD83D\uDE00). That escape means the same character wherever such a
// character can stand in a script:
//   - in a string or a template literal (the cooked value);
//   - in a regular expression, in or out of a class, with or without the u flag (with u, an
//     escaped surrogate pair is one code point);
//   - in an identifier (below U+10000; beyond it a surrogate escape is a syntax error, which the
//     browser tests would meet at once: none of the toolkit's identifiers is outside ASCII);
//   - in a comment it is only text.
// A backslash before the character (an identity escape, "\é" = "é" in a string, /\−/ without u)
// is dropped with it: "\é" becomes "\u00E9", not the backslash and "u00E9". A backslash before a
// line separator (U+2028, U+2029) in a string is a line continuation, which no escape spells:
// refused. What no escape keeps is the raw text of a template (String.raw, a tag reading .raw)
// and a regular expression's .source: asciiScript refuses a String.raw template holding such
// characters (String.raw is the only tag the toolkit's modules use: a tag of one's own that read
// .raw of a non-ASCII template would see the escapes), and the widgets read no .source of a
// literal that holds them.

/** The hex escape of one UTF-16 code unit. */
const escape = (c) => `\\u${c.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * `text` (JavaScript) with every non-ASCII character escaped as \uXXXX. Throws where an escape
 * would change the meaning (see above). `name` names the file in the messages.
 */
export function asciiScript(text, name = 'script') {
  for (const m of text.matchAll(/\bString\.raw\s*`/g)) {
    const raw = rawTemplate(text, m.index + m[0].length);
    if (!isAscii(raw)) throw new Error(`${name}: String.raw\`${raw.slice(0, 30)}…\` holds non-ASCII characters, whose escapes its raw text would keep`);
  }
  let out = '';
  let run = 0; // the number of backslashes just before the present character
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      out += text[i];
      run = c === 0x5c ? run + 1 : 0;
      continue;
    }
    if (run % 2 === 1) {
      if (c === 0x2028 || c === 0x2029) throw new Error(`${name}: a backslash before U+${c.toString(16).toUpperCase()} (a line continuation) at offset ${i}`);
      out = out.slice(0, -1);
    }
    out += escape(c);
    run = 0;
  }
  return out;
}

// The text of a template from `start` (after its backquote) to its closing backquote; one with a
// substitution is refused (no String.raw of the toolkit has one).
function rawTemplate(text, start) {
  for (let i = start; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '`') return text.slice(start, i);
    else if (text[i] === '$' && text[i + 1] === '{') throw new Error('String.raw with a substitution: not checked');
  }
  throw new Error('String.raw: no closing backquote');
}

/** Whether text is pure ASCII (every code unit below U+0080). */
export function isAscii(text) {
  return !/[^\x00-\x7f]/.test(text);
}
