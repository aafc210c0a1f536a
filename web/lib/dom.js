// lib/dom.js — building DOM without HTML strings. User text (labels, pasted cells, URL state)
// only ever reaches the page through textContent and attribute values, never innerHTML.

/**
 * Creates an element. attrs: plain attributes, plus `class`, `text` (textContent), `dataset`
 * (object), `on` (object of event listeners) and properties `value`, `checked`, `disabled`.
 * Children are nodes or strings (added as text), null/false are skipped, arrays are flattened.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = Array.isArray(v) ? v.filter(Boolean).join(' ') : v;
    else if (k === 'text') el.textContent = String(v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'on') for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    else if (k === 'value' || k === 'checked' || k === 'disabled') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Replaces all children of el. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** document.getElementById that fails loudly when the page and script disagree. */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`page: missing element #${id}`);
  return el;
}

/**
 * Marks a field invalid (or valid again) with its message: class "invalid", aria-invalid, and
 * the message in msgEl, which the field then names as its description.
 */
export function setFieldMessage(input, msgEl, msg) {
  input.classList.toggle('invalid', !!msg);
  if (msg) {
    input.setAttribute('aria-invalid', 'true');
    if (msgEl) input.setAttribute('aria-describedby', msgEl.id);
  } else {
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-describedby');
  }
  if (msgEl) msgEl.textContent = msg || '';
}

/**
 * Adds a section's stylesheet to the page once. `href` is written out by the caller as a
 * literal (the single-file build finds stylesheets by their literal names).
 */
export function addStylesheet(href, name) {
  if (document.querySelector(`link[data-section-css="${name}"]`)) return;
  document.head.append(h('link', { rel: 'stylesheet', href, 'data-section-css': name }));
}
