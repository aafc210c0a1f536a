// page/share.js — a section's whole state in the URL hash, so that a course author can link to a
// prepared example: #channel=<base64url JSON>, #mechanism=<…>, several joined by '&'.
// Opening such a link (or changing the hash) restores the named sections.
//
// URL text is untrusted: it is decoded as JSON only (never evaluated), size-limited, checked
// field by field by the section's check() where it has one (the channel section's is
// checkChannelState) and handed to its setState inside try/catch; labels reach the page through
// textContent only (lib/dom.js).

import { copyText } from '../lib/export.js';

/** Longest hash accepted (characters); a bigger state is refused rather than parsed. */
export const MAX_HASH = 1_000_000;

// ---------------------------------------------------------------- encoding

/** base64url (RFC 4648 §5, no padding) of the UTF-8 JSON of a value. */
export function encodeState(value) {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Inverse of encodeState; throws an Error with a readable message on anything else. */
export function decodeState(text) {
  const s = String(text);
  if (s.length > MAX_HASH) throw new Error('the shared state is too large');
  if (!/^[A-Za-z0-9_-]*$/.test(s)) throw new Error('the shared state is not base64url text');
  let bin;
  try {
    bin = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4));
  } catch {
    throw new Error('the shared state is not base64url text');
  }
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  let json;
  try {
    json = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error('the shared state is not UTF-8 text');
  }
  try {
    return JSON.parse(json);
  } catch {
    throw new Error('the shared state is not JSON');
  }
}

/** Parses "#a=…&b=…" into a Map name → encoded value (plain anchors such as "#channel" give none). */
export function parseHash(hash) {
  const out = new Map();
  const s = String(hash || '').replace(/^#/, '');
  if (s.length > MAX_HASH) return out;
  for (const part of s.split('&')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq);
    if (/^[a-z][a-z0-9-]{0,31}$/.test(name)) out.set(name, part.slice(eq + 1));
  }
  return out;
}

/** The page's address with the hash carrying `states` ({name: state}). */
export function shareURL(states, base = location.href) {
  const u = new URL(base);
  u.hash = Object.entries(states).map(([name, st]) => `${name}=${encodeState(st)}`).join('&');
  return u.href;
}

// The channel section checks its own state from a URL (sections/channel/state.js).
export { checkState as checkChannelState } from '../sections/channel/state.js';

// ---------------------------------------------------------------- wiring

function sectionRoot(name) {
  return document.getElementById(name);
}

function showProblem(name, message) {
  const root = sectionRoot(name);
  const head = root && root.querySelector('.section-head');
  if (!head) return;
  let p = head.querySelector('.share-error');
  if (!p) {
    p = document.createElement('p');
    p.className = 'share-error';
    p.setAttribute('role', 'alert');
    p.dataset.testid = `share-error-${name}`;
    head.append(p);
  }
  p.textContent = `The shared link's state for this section could not be restored: ${message}`;
}

function clearProblem(name) {
  sectionRoot(name)?.querySelector('.share-error')?.remove();
}

/**
 * Restores the sections named in the hash. `sections` maps a name to {getState, setState}
 * (plus an optional check(state) → clean state). Returns the names restored.
 */
export function restoreFromHash(sections, hash = location.hash) {
  const restored = [];
  for (const [name, encoded] of parseHash(hash)) {
    const sec = sections[name];
    if (!sec || typeof sec.setState !== 'function') continue;
    try {
      let st = decodeState(encoded);
      if (sec.check) st = sec.check(st);
      else if (!st || typeof st !== 'object' || Array.isArray(st)) throw new Error('the state must be an object');
      sec.setState(st);
      clearProblem(name);
      restored.push(name);
    } catch (e) {
      showProblem(name, e && e.message ? e.message : String(e));
    }
  }
  if (restored.length) sectionRoot(restored[0])?.scrollIntoView({ block: 'start' });
  return restored;
}

/**
 * Adds a "Copy link" button to each section's head, restores the state in the current hash
 * and follows later hash changes (a pasted link in the same tab).
 * @param {Record<string, {getState(): object, setState(s: object): void, check?: (s: unknown) => object}>} sections
 */
export function installSharing(sections) {
  for (const [name, sec] of Object.entries(sections)) {
    const head = sectionRoot(name)?.querySelector('.section-head');
    if (!head || typeof sec.getState !== 'function' || head.querySelector('.share-row')) continue;
    const title = head.querySelector('h2')?.textContent || name;
    const row = document.createElement('div');
    row.className = 'share-row';
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'small share';
    b.textContent = 'Copy link';
    b.dataset.testid = `share-${name}`;
    b.setAttribute('aria-label', `Copy a link to this “${title}” example`);
    b.title = 'A link that opens the page with this section exactly as it is now';
    const out = document.createElement('span');
    out.className = 'export-status';
    out.setAttribute('role', 'status');
    b.addEventListener('click', async () => {
      let url;
      try {
        url = shareURL({ [name]: sec.getState() });
      } catch (e) {
        out.textContent = `Could not make a link: ${e.message}`;
        return;
      }
      // The address bar shows the link too, without a hashchange (which would restore it again).
      history.replaceState(null, '', url);
      const ok = await copyText(url);
      out.textContent = ok ? 'Link copied.' : 'Copy the address from the address bar.';
      clearTimeout(out._timer);
      out._timer = setTimeout(() => { out.textContent = ''; }, 4000);
    });
    row.append(b, out);
    head.append(row);
  }
  restoreFromHash(sections);
  addEventListener('hashchange', () => restoreFromHash(sections));
}
