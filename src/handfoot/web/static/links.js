// The game links this browser holds, kept in localStorage["handfoot.games"] (newest first).
// An entry: {game_id, link, role: "player"|"spectator", seat, name, created, profile}.
// Nothing here ever leaves the browser except through the History page's status requests.

const KEY = "handfoot.games";

/** Every stored entry, newest first; [] when storage is empty, unreadable or disabled. */
export function games() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(list) ? list.filter((g) => g && g.game_id && g.link) : [];
  } catch {
    return [];
  }
}

function save(list) {
  try {
    localStorage.setItem(KEY, JSON.stringify(list));
    return true;
  } catch {
    return false;
  }
}

/** Add or refresh an entry (one per link); details already known are kept. */
export function rememberGame(entry) {
  const list = games();
  const old = list.find((g) => g.link === entry.link);
  const rest = list.filter((g) => g.link !== entry.link);
  const merged = {seat: null, name: "", profile: "", ...old, ...dropEmpty(entry)};
  merged.created = (old && old.created) || entry.created || new Date().toISOString();
  return save([merged, ...rest]);
}

function dropEmpty(obj) {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined && v !== null && v !== ""));
}

/** Forget every entry with this link. */
export function forgetGame(link) {
  return save(games().filter((g) => g.link !== link));
}

/** The token and role a link carries in its fragment: "#t=TOKEN" (a seat) or "#s=TOKEN". */
export function parseLink(link) {
  const url = new URL(link, window.location.origin);
  const match = url.pathname.match(/^\/game\/([^/]+)$/);
  const params = new URLSearchParams(url.hash.slice(1));
  const seatToken = params.get("t");
  const spectatorToken = params.get("s");
  if (!match || !(seatToken || spectatorToken)) return null;
  return {
    game_id: decodeURIComponent(match[1]),
    token: seatToken || spectatorToken,
    role: seatToken ? "player" : "spectator",
  };
}

/** Called by base.html on every page: a /game/ID#t=... page is remembered. */
export function rememberOpenedLink(location) {
  const parsed = parseLink(location.href);
  if (!parsed) return;
  const link = location.pathname + location.search + location.hash;
  rememberGame({game_id: parsed.game_id, link, role: parsed.role});
}
