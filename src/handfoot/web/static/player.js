// The signed-in player of this browser: a random key (32 bytes from crypto.getRandomValues,
// base64url) kept in localStorage["handfoot.player"] with the player's id and name. The key is
// sent only as the X-Handfoot-Player header of API requests to this site (docs/club.md); the
// server keeps its SHA-256. No cookie: another site can neither send the header nor read answers.

const KEY = "handfoot.player";
export const HEADER = "X-Handfoot-Player";

/** {key, id, name} of this browser's player, or null. */
export function me() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "null");
    return data && typeof data.key === "string" && data.key.length === 43 ? data : null;
  } catch {
    return null;
  }
}

export function remember(key, player) {
  try {
    localStorage.setItem(KEY, JSON.stringify({key, id: player.id, name: player.name}));
    return true;
  } catch {
    return false;
  }
}

export function forget() {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // storage disabled: nothing was kept
  }
}

/** A new device key: 32 random bytes, base64url without padding (43 characters). */
export function newKey() {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** A short label for this device (shown in the player's list of devices). */
export function deviceLabel() {
  const ua = navigator.userAgent || "";
  const kind = /iPhone|Android.*Mobile/.test(ua) ? "phone" : /iPad|Android|Tablet/.test(ua) ? "tablet" : "computer";
  const browser = /Firefox\//.test(ua) ? "Firefox" : /Edg\//.test(ua) ? "Edge" : /Chrome\//.test(ua) ? "Chrome" : /Safari\//.test(ua) ? "Safari" : "browser";
  return `${browser} on a ${kind}`;
}

/** The API: JSON in and out, with the player's header when signed in; throws an Error with
 * the server's message (its status in err.status). */
export async function api(method, path, body) {
  const headers = {};
  const player = me();
  if (player) headers[HEADER] = player.key;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  } catch {
    throw Object.assign(new Error("The server does not answer."), {status: 0});
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw Object.assign(new Error((data && data.error) || `The server answered ${response.status}.`), {status: response.status});
  }
  return data;
}

/** Parse a server-made SVG (a QR code) into a node, without innerHTML on the page. */
export function svgNode(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = doc.documentElement;
  if (!svg || svg.nodeName.toLowerCase() !== "svg") return document.createTextNode("");
  return document.importNode(svg, true);
}

/** The token in the URL's fragment (#TOKEN), then removed from the address bar. */
export function takeFragment() {
  const token = decodeURIComponent(window.location.hash.slice(1));
  if (token) history.replaceState(null, "", window.location.pathname + window.location.search);
  return token;
}
