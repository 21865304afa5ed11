// On a table page opened by a seat link (#t=TOKEN) in a browser with a player: the seat is
// linked to the player (POST /api/games/{id}/sit), so the game counts in their clubs and their
// games. Nothing happens without a player; the game plays the same either way.

import {api, me} from "/static/player.js";

const match = /^\/game\/([^/]+)$/.exec(window.location.pathname);
const token = new URLSearchParams(window.location.hash.slice(1)).get("t");
if (match && token && me()) {
  api("POST", `/api/games/${encodeURIComponent(match[1])}/sit`, {token}).catch(() => {});
}
