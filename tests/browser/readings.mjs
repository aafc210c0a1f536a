// The check shared by the sections' browser tests that every number a student can see has a
// reading: one line that says what it means (web/lib/readings.js), on hover at least. It walks the
// section's rendered DOM, not the code that builds it, so a number added later without a reading
// is caught too.
import assert from 'node:assert/strict';

/**
 * Every number shown in the element `root` (a selector) without a reading: an element whose own
 * text is a number (4.2, −1.807, 1.2×10⁻⁵, ∞, 2^(−12.3)), alone or named ("e^ε = 2.718",
 * "true ε = 0.62 nats"), shown on screen, and not a label (table
 * headers, options) nor inside a plot (whose axes and legend say what its numbers are). Its
 * reading is data-reading on it or on an ancestor (a table's entries share one), and the reading
 * must also be in its title, which is what the pointer shows. Returns how many numbers were
 * checked (so that a test can tell it saw some) and "text (where)" for each one without a reading.
 * @param {import('playwright').Page} page
 * @param {string} root
 * @returns {Promise<{checked: number, missing: string[]}>}
 */
export function numbersWithoutReading(page, root) {
  return page.$eval(root, (sec) => {
    // A number alone, or named and with its unit: "e^ε = 2.718", "true ε = 0.62 nats".
    const value = String.raw`[−+-]?(?:\d[\d,]*(?:\.\d+)?(?:×10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?|∞)|2\^\([−-]?[\d.,×⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+\)`;
    const NUMBER = new RegExp(String.raw`^(?:[^=\d]{1,16}=\s*)?(?:${value})(?:\s+(?:nats|bits))?$`);
    const missing = [];
    let checked = 0;
    for (const el of sec.querySelectorAll('*')) {
      if (el.closest('svg, figure, th, select, option, label, input, textarea, button, .formula, .r-formula')) continue;
      const text = el.textContent.trim();
      if (!NUMBER.test(text)) continue;
      // The innermost element showing the number is the one checked.
      if ([...el.children].some((c) => c.textContent.trim() === text)) continue;
      if (el.querySelector('input, select, textarea, label, button')) continue; // a form's block, not a number
      if (el.querySelector('output, [data-reading]')) continue; // a number with its unit: the number is checked
      if (!el.getClientRects().length) continue; // not shown (display: none, a closed <details>)
      checked += 1;
      const reading = el.closest('[data-reading]')?.dataset.reading ?? '';
      if (reading.trim().length < 10 || !(el.title || '').includes(reading)) {
        const where = el.dataset.testid ?? el.closest('[data-testid]')?.dataset.testid ?? el.tagName.toLowerCase();
        missing.push(`${text} (${where})`);
      }
    }
    return { checked, missing };
  });
}

/**
 * Asserts that the section `root` shows at least `atLeast` numbers (the walk saw the section) and
 * that each has a reading; `what` names the situation in the failure message.
 */
export async function assertEveryNumberRead(page, root, atLeast, what) {
  const { checked, missing } = await numbersWithoutReading(page, root);
  assert.ok(checked >= atLeast, `${what}: ${checked} numbers shown, expected at least ${atLeast}`);
  assert.deepEqual(missing, [], `${what}: numbers without a reading`);
  return checked;
}
