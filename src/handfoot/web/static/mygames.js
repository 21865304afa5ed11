// My games: every game where this browser holds a seat (static/links.js), asked of the
// server with the seats' own tokens (POST /api/my-games), and, for a signed-in player (the
// X-Handfoot-Player header), every seat of theirs: the ones waiting for you first, with the
// time left. The web app opens here (the manifest's start_url).

import { esc } from "/static/text.js";
import { games, parseLink } from "/static/links.js";
import { HEADER, me } from "/static/player.js";

const $ = (id) => document.getElementById(id);

export function timeLeft(seconds) {
  if (seconds === null || seconds === undefined) return "";
  if (seconds <= 0) return "time is up";
  const h = Math.floor(seconds / 3600);
  if (h >= 48) return `${Math.floor(h / 24)} days left`;
  if (h >= 1) return `${h} h ${Math.floor((seconds % 3600) / 60)} min left`;
  return `${Math.max(1, Math.floor(seconds / 60))} min left`;
}

/** One seat per game: the one this browser plays (as on the History page: the lowest seat
 * it holds, the lobby storing its own first; the others' links are for handing out). */
function seats() {
  const byGame = new Map();
  for (const g of games()) {
    if (g.role !== "player") continue;
    const parsed = parseLink(g.link);
    if (!parsed || parsed.role !== "player") continue;
    const seat = g.seat ?? 99;
    const known = byGame.get(parsed.game_id);
    if (known && known.seat <= seat) continue;
    byGame.set(parsed.game_id, { game_id: parsed.game_id, token: parsed.token, link: g.link, seat });
  }
  return [...byGame.values()];
}

function item(entry, link) {
  const li = document.createElement("li");
  li.className = `panel game-item${entry.your_turn ? " your-turn" : ""}`;
  li.dataset.game = entry.game_id;
  const badge = entry.over ? `<span class="badge ok">finished</span>`
    : entry.your_turn ? `<span class="badge warn">your turn</span>`
    : `<span class="badge live">${esc(entry.to_act || "")} to play</span>`;
  const bits = [];
  bits.push(esc(entry.players.join(", ")));
  if (!entry.over) bits.push(`round ${entry.round} of ${entry.rounds}`);
  if (entry.correspondence) bits.push(`${Math.round(entry.correspondence.per_move / 3600)} h a turn`);
  if (entry.muted) bits.push("notices muted");
  let clock = "";
  if (entry.your_turn && entry.seconds_left !== null) {
    clock = `<p class="turn-clock${entry.seconds_left < 3 * 3600 ? " urgent" : ""}">${esc(timeLeft(entry.seconds_left))}</p>`;
  } else if (entry.overdue) {
    clock = `<p class="turn-clock urgent">${esc(entry.to_act || "")}'s time is up: open the game to give the seat to a bot</p>`;
  }
  li.innerHTML = `
    <div class="spread"><h3>${esc(entry.profile_title)} ${badge}</h3><span class="small muted">you are ${esc(entry.name)}</span></div>
    ${clock}
    <p class="game-meta">${bits.join(" · ")}</p>
    <div class="btn-row">${link ? `<a class="btn ${entry.your_turn ? "btn-gold" : "btn-primary"}" href="${esc(link)}">${entry.your_turn ? "Play your turn" : entry.over ? "Final table" : "Open"}</a>`
      : `<span class="small muted">Open it from the device that holds its link.</span>`}</div>`;
  return li;
}

async function start() {
  const list = $("my-games-list");
  const mine = seats();
  const player = me();
  if (!mine.length && !player) {
    list.replaceChildren();
    $("my-games-status").innerHTML = `<div class="notice"><p>You hold no seat on this device yet.
      <a href="/">Start a game</a> (choose <strong>By correspondence</strong> to play a move a day), or open the link someone sent you.</p></div>`;
    return;
  }
  let data;
  try {
    const headers = { "Content-Type": "application/json" };
    if (player) headers[HEADER] = player.key;
    const r = await fetch("/api/my-games", {
      method: "POST", headers,
      body: JSON.stringify({ seats: mine.map(({ game_id, token }) => ({ game_id, token })) }),
    });
    data = await r.json();
    if (!r.ok) throw new Error(data.error || `the server answered ${r.status}`);
  } catch (err) {
    list.replaceChildren();
    $("my-games-status").innerHTML = `<div class="notice error"><p>Your games could not be loaded: ${esc(err.message)}</p></div>`;
    return;
  }
  list.replaceChildren();
  const byKey = new Map(mine.map((s) => [s.game_id, s.link]));
  for (const entry of data.games) list.append(item(entry, byKey.get(entry.game_id) || entry.link));
  if (!data.games.length) list.innerHTML = `<li class="muted">The server knows none of these games any more.</li>`;
  const waiting = data.games.filter((g) => g.your_turn).length;
  $("my-games-status").textContent = waiting ? `${waiting} game${waiting === 1 ? "" : "s"} waiting for you.` : "";
}

start();
