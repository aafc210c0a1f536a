// The heat maps' colour ramps (web/lib/plot.js heatColour, heatInk), measured over values 0…1 with
// the contrast ratio of WCAG 2 (written here from its definition, not taken from the code):
//   - the value written on a cell: at least 4.5 : 1 against the cell, at every value (WCAG 2.1
//     success criterion 1.4.3, contrast (minimum), for normal text);
//   - the ends of the scale, 0 against 1: at least 7 : 1 (the enhanced level of criterion 1.4.6),
//     because a projector flattens contrast and a slide must still show high against low;
//   - the largest value against the widget's background: at least 3 : 1 (criterion 1.4.11,
//     non-text contrast), so the cells that matter stand out from the box;
//   - the relative luminance rises (dark) or falls (light) strictly with the value, so the order of
//     the values is kept in greyscale and on a washed-out projector.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { heatColour, heatInk } from '../../web/lib/plot.js';

// Relative luminance and contrast ratio, as WCAG 2 defines them.
function luminance(hex) {
  assert.match(hex, /^#[0-9a-f]{6}$/i, `a #rrggbb colour: ${hex}`);
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

// The widgets' backgrounds (web/widgets/styles.js, --qif-bg) and the page's plot background.
const BACKGROUND = { light: '#ffffff', dark: '#1d2127' };
const STEPS = 1000;
const values = Array.from({ length: STEPS + 1 }, (_, k) => k / STEPS);

for (const look of ['light', 'dark']) {
  test(`${look} heat map: text on every cell at least 4.5:1`, () => {
    let worst = { ratio: Infinity };
    for (const t of values) {
      const ratio = contrast(heatInk(t, look), heatColour(t, look));
      if (ratio < worst.ratio) worst = { ratio, t, cell: heatColour(t, look), ink: heatInk(t, look) };
    }
    assert.ok(worst.ratio >= 4.5, `worst at t = ${worst.t}: ${worst.ink} on ${worst.cell}, ${worst.ratio.toFixed(2)}:1`);
  });

  test(`${look} heat map: 0 against 1 at least 7:1, the top against the background at least 3:1`, () => {
    const ends = contrast(heatColour(0, look), heatColour(1, look));
    assert.ok(ends >= 7, `0 (${heatColour(0, look)}) against 1 (${heatColour(1, look)}): ${ends.toFixed(2)}:1`);
    const top = contrast(heatColour(1, look), BACKGROUND[look]);
    assert.ok(top >= 3, `1 (${heatColour(1, look)}) against the background ${BACKGROUND[look]}: ${top.toFixed(2)}:1`);
  });

  test(`${look} heat map: luminance strictly monotone in the value`, () => {
    const sign = look === 'dark' ? 1 : -1;
    // Steps of 0.01: the colours are rounded to 8 bits, so finer steps may repeat a colour.
    for (let k = 1; k <= 100; k++) {
      const a = luminance(heatColour((k - 1) / 100, look));
      const b = luminance(heatColour(k / 100, look));
      assert.ok(sign * (b - a) > 0, `from ${(k - 1) / 100} to ${k / 100}: ${a.toFixed(4)} → ${b.toFixed(4)}`);
    }
  });
}

test('heat colours: the ends are the ramps\' stops, values outside 0…1 are clamped', () => {
  // The stops are written in the code as #rrggbb; a round trip through OKLab must give them back.
  assert.equal(heatColour(0, 'light'), '#f7fbff');
  assert.equal(heatColour(1, 'dark'), '#f4e98c');
  assert.equal(heatColour(-3, 'dark'), heatColour(0, 'dark'));
  assert.equal(heatColour(7, 'light'), heatColour(1, 'light'));
  assert.equal(heatColour(NaN, 'light'), heatColour(0, 'light'));
});
