// lib/program-habits.js — what an editor adds to the engine's diagnostics of a program
// (docs/program-language.md) for people who come from Python, C or JavaScript:
//   - habits: `break`, `return`, `elif`, `&&`, `||`, `!x`, `if a = b`, `x += 1`, `True`, a colon
//     after `if c`… The engine reports where its grammar stopped ("expected `{`"), which is
//     right but does not say what to write instead. The page reads the line the engine named
//     (and the one before, where a missing brace is often noticed one line late), with strings
//     and comments blanked out, and when it finds such a habit it says "this language has no …;
//     write …", at the habit's own column. The engine's words stay available (data-engine).
//   - a warning for a program that observes nothing: every secret gives the same (empty)
//     output, a one-column channel, which is almost never what the writer meant.
// This is done here rather than in the engine's parser so that the language's messages (and
// their tests) stay as they are for every other client; the patterns only ever replace the text
// of a diagnostic the engine already reported, never invent an error.

/** A line with its strings and comment blanked (same length, so that columns still match). */
export function maskLine(line) {
  let out = '';
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (inString) {
      if (c === '\\' && i + 1 < line.length) { out += '  '; i++; continue; }
      if (c === '"') { inString = false; out += '"'; continue; }
      out += ' ';
      continue;
    }
    if (c === '"') { inString = true; out += '"'; continue; }
    if (c === '#') return out + ' '.repeat(line.length - i);
    out += c;
  }
  return out;
}

const code = (s) => `\`${s}\``;

// Each habit: a pattern on the masked line (its match's index, or the index of the group named
// "at", is the column), and the message. Order matters: the first that matches wins.
const HABITS = [
  { re: /^\s*(?:\}\s*)?(?:else\s+)?(?:if|while)\b[^=!<>]*?[^=!<>](?<at>=)(?!=)/, msg: () => `did you mean ${code('==')}? In a condition, ${code('=')} would assign; ${code('==')} compares` },
  { re: /(?<at>\belif\b)/, msg: () => `this language has no ${code('elif')}; write ${code('} else if c {')}` },
  { re: /(?<at>\belsif\b|\belseif\b)/, msg: () => `this language has no ${code('elsif')}; write ${code('} else if c {')}` },
  { re: /(?<at>&&)/, msg: () => `this language has no ${code('&&')}; write ${code('and')}` },
  { re: /(?<at>\|\|)/, msg: () => `this language has no ${code('||')}; write ${code('or')}` },
  { re: /(?<at>!)(?!=)/, msg: () => `this language has no ${code('!')} for “not”; write ${code('not')} (${code('!=')} is “not equal”)` },
  { re: /^\s*(?<at>break)\b/, msg: () => `this language has no ${code('break')}; write the loop's condition so that it stops (${code('while i < n and not found { … }')})` },
  { re: /^\s*(?<at>continue)\b/, msg: () => `this language has no ${code('continue')}; put the rest of the loop's body in an ${code('if')}` },
  { re: /^\s*(?<at>return)\b/, msg: () => `this language has no ${code('return')}: a program is not a function; ${code('observe')} what the adversary sees, and use ${code('if … else')} for the rest` },
  { re: /^\s*(?<at>(?:def|function|fn|func))\b/, msg: () => 'this language has no functions; write the computation inline (the built-in functions are listed in the documentation)' },
  { re: /^\s*(?<at>(?:let|var|const|int|auto))\s+[A-Za-z_]/, msg: () => `this language has no declarations; write ${code('x = 1')}` },
  { re: /^\s*[A-Za-z_][\w]*(?:\[[^\]]*\])*\s*(?<at>[-+*/%]=)/, msg: (m) => `this language has no ${code(m.groups.at)}; write ${code(`x = x ${m.groups.at[0]} …`)}` },
  { re: /(?<at>\+\+|--)/, msg: (m) => `this language has no ${code(m.groups.at)}; write ${code(`x = x ${m.groups.at[0]} 1`)}` },
  { re: /(?<at>\bTrue\b)/, msg: () => `this language writes ${code('true')} (lower case)` },
  { re: /(?<at>\bFalse\b)/, msg: () => `this language writes ${code('false')} (lower case)` },
  { re: /(?<at>\bprint)\s*\(/, msg: () => `this language has no ${code('print')}; ${code('observe e')} adds e to what the adversary sees` },
  { re: /\bfor\s*(?<at>\()/, msg: () => `this language has no C-style ${code('for (…; …; …)')}; write ${code('for i in 0..n-1 { … }')}` },
  { re: /(?<at>\brange)\s*\(/, msg: () => `this language has no ${code('range')}; write ${code('for i in 0..n-1 { … }')} (both ends included)` },
  { re: /(?<at>\^)/, msg: () => `this language has no ${code('^')}; write ${code('xor')} (exclusive or, of booleans or integers)` },
  { re: /^\s*(?:\}\s*)?(?:if|else|while|for)\b.*?(?<at>:)\s*$/, msg: () => `blocks are in braces, not after a colon; write ${code('if c { … }')}` },
];

/** The habit on a line, if any: {column (from 1), message}. */
export function habitOn(line) {
  const masked = maskLine(line);
  for (const h of HABITS) {
    const m = h.re.exec(masked);
    if (!m) continue;
    const at = m.groups?.at !== undefined ? m.index + m[0].lastIndexOf(m.groups.at) : m.index;
    return { column: at + 1, message: h.msg(m) };
  }
  return null;
}

/**
 * The engine's diagnostics with the habits named: a diagnostic {line, column, message} whose
 * line (or the line before it) shows a habit becomes {line, column, message, engine}, the
 * habit's line and column and "this language has no …" message, `engine` the engine's words.
 */
export function explainHabits(source, diagnostics) {
  const lines = String(source).split('\n');
  const seen = new Set();
  const out = [];
  for (const d of diagnostics) {
    let found = null;
    for (const ln of [d.line, d.line - 1]) {
      if (ln < 1 || ln > lines.length) continue;
      const h = habitOn(lines[ln - 1]);
      if (h) { found = { line: ln, ...h }; break; }
    }
    if (!found) { out.push(d); continue; }
    const key = `${found.line}:${found.column}`;
    if (seen.has(key)) continue; // one habit, one message
    seen.add(key);
    out.push({ ...d, line: found.line, column: found.column, message: found.message, engine: d.message });
  }
  return out;
}

/** Whether the program has an `observe` statement anywhere (outside strings and comments). */
export function observesSomething(source) {
  return String(source).split('\n').some((l) => /(^|[^\w])observe\b/.test(maskLine(l)));
}

/**
 * The warning of a program that observes nothing, or null: {line, column, message, severity}.
 * It sits on the last line that has code (where an `observe` would go).
 */
export function noObserveWarning(source) {
  const text = String(source);
  if (!text.trim() || observesSomething(text)) return null;
  const lines = text.split('\n');
  let line = lines.length;
  while (line > 1 && !maskLine(lines[line - 1]).trim()) line--;
  return {
    line, column: 1, severity: 'warning',
    message: `nothing is observed: every secret gives the same output (add ${code('observe e')} for what the adversary sees)`,
  };
}
