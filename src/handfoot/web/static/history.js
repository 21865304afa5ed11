// History: only the games this browser holds links for (static/links.js), each asked for
// its status with its own token (POST /api/games/{id}/status). Resume, watch, replay, forget.

import {esc, number} from "/static/text.js";
import {forgetGame, games, parseLink} from "/static/links.js";

const $ = (id) => document.getElementById(id);

function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const minutes = Math.round((Date.now() - d.getTime()) / 60000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 60 * 24) return `${Math.round(minutes / 60)} h ago`;
  return d.toLocaleDateString("en-GB", {day: "numeric", month: "short", year: "numeric"});
}

/** The links of each game, the player's own link first. */
function groupByGame(entries) {
  const byId = new Map();
  for (const e of entries) {
    if (!byId.has(e.game_id)) byId.set(e.game_id, []);
    byId.get(e.game_id).push(e);
  }
  return [...byId.entries()].map(([id, links]) => {
    // "Mine": the first player link this browser opened or created (the lobby stores its own
    // seat first), else a spectator link.
    const players = links.filter((l) => l.role === "player");
    const own = [...players].sort((a, b) => (a.seat ?? 99) - (b.seat ?? 99))[0] || links[0];
    const created = links.map((l) => l.created).filter(Boolean).sort()[0];
    return {id, links, own, created};
  });
}

async function fetchStatus(game) {
  const parsed = parseLink(game.own.link);
  if (!parsed) return {error: "this link is not a game link"};
  try {
    const r = await fetch(`/api/games/${encodeURIComponent(game.id)}/status`, {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({token: parsed.token}),
    });
    const data = await r.json().catch(() => null);
    if (!r.ok) {
      return {error: r.status === 404 ? "The server does not know this game any more."
        : r.status === 403 ? "The server no longer accepts this link." : (data && data.error) || `The server answered ${r.status}.`};
    }
    return data;
  } catch {
    return {error: "The server does not answer."};
  }
}

function seatsText(status) {
  if (!Array.isArray(status.seats) || !status.seats.length) return "";
  return status.seats.map((s) => esc(s.name || (s.kind === "bot" ? `${s.level || ""} bot` : `Seat ${s.seat + 1}`))).join(", ");
}

function totalsText(status) {
  if (!Array.isArray(status.totals)) return "";
  return status.totals.map((t) => number(Number(t))).join(" to ");
}

function item(game, status) {
  const li = document.createElement("li");
  li.className = "panel game-item";
  const daily = /^daily (\d{4}-\d{2}-\d{2})$/.exec(game.own.profile || "");
  const title = daily ? `Daily deal of ${daily[1]}` : status.profile_title || status.profile || game.own.profile || "Hand and Foot";
  const over = status.over === true;
  const badge = status.error ? `<span class="badge warn">unknown</span>`
    : over ? `<span class="badge ok">finished</span>` : `<span class="badge live">in progress</span>`;
  const role = game.own.role === "spectator" ? "watching"
    : game.own.name ? `you are ${esc(game.own.name)}` : game.own.seat !== null && game.own.seat !== undefined ? `you play seat ${game.own.seat + 1}` : "your seat";
  const bits = [];
  if (!status.error) {
    if (status.layout) bits.push(esc(status.layout));
    const s = seatsText(status);
    if (s) bits.push(s);
    if (status.round && status.rounds) bits.push(over ? `${status.rounds} round${status.rounds === 1 ? "" : "s"}` : `round ${status.round} of ${status.rounds}`);
    const t = totalsText(status);
    if (t) bits.push(`score ${t}`);
    if (over && Array.isArray(status.winners) && status.winners.length && Array.isArray(status.seats)) {
      // winners: the winning side(s)
      const sides = status.totals ? status.totals.length : 0;
      const names = status.seats.filter((seat) => status.winners.includes(sides ? seat.seat % sides : seat.seat)).map((seat) => seat.name);
      if (names.length) bits.push(`won by ${esc(names.join(" and "))}`);
    }
  }
  const actions = [];
  if (status.error) {
    actions.push(`<a class="btn" href="${esc(game.own.link)}">Try the link</a>`);
  } else if (over) {
    actions.push(`<a class="btn btn-primary" href="/replay/${encodeURIComponent(game.id)}">Replay</a>`);
    actions.push(`<a class="btn" href="/api/games/${encodeURIComponent(game.id)}/record" download="handfoot-${esc(game.id)}.json">Download record</a>`);
    actions.push(`<a class="btn btn-quiet" href="${esc(game.own.link)}">Final table</a>`);
  } else {
    actions.push(`<a class="btn btn-primary" href="${esc(game.own.link)}">${game.own.role === "spectator" ? "Watch" : "Resume"}</a>`);
  }
  const others = game.links.filter((l) => l !== game.own);
  const linkList = others.length ? `<details class="small"><summary>Other links of this game (${others.length})</summary><ul>${others.map((l) =>
    `<li>${esc(l.role === "spectator" ? "Watchers" : l.name || `seat ${(l.seat ?? 0) + 1}`)}: <a href="${esc(l.link)}">${esc(new URL(l.link, location.origin).href)}</a></li>`).join("")}</ul></details>` : "";
  li.innerHTML = `
    <div class="spread"><h3>${esc(title)} ${badge}</h3><span class="small muted">${esc(when(status.updated || game.created))}</span></div>
    <p class="game-meta">${status.error ? `<span class="muted">${esc(status.error)}</span>` : bits.join(" · ")}<br><span class="small muted">${role}</span></p>
    <div class="btn-row">${actions.join("")}<button type="button" class="btn btn-danger forget">Forget</button></div>
    ${linkList}`;
  li.querySelector(".forget").addEventListener("click", () => {
    const ok = window.confirm(over ? "Forget this game on this device?"
      : "Forget this game on this device? Without its link you cannot come back to your seat.");
    if (!ok) return;
    for (const l of game.links) forgetGame(l.link);
    li.remove();
    refreshEmpty();
  });
  li.dataset.over = over ? "1" : "0";
  return li;
}

function refreshEmpty() {
  for (const [id, text] of [["open-games", "No game in progress."], ["done-games", "No finished game yet."]]) {
    const list = $(id);
    const empty = list.querySelector(".empty");
    const items = list.querySelectorAll(".game-item").length;
    if (!items && !empty) list.innerHTML = `<li class="muted empty">${text}</li>`;
    if (items && empty) empty.remove();
  }
}

async function start() {
  const all = groupByGame(games());
  const open = $("open-games");
  const done = $("done-games");
  open.replaceChildren();
  done.replaceChildren();
  if (!all.length) {
    $("history-status").innerHTML = `<div class="notice"><p>This browser holds no game links yet.
      Games you <a href="/">start</a>, join through a link, watch or play as the <a href="/daily">daily deal</a> appear here.</p></div>`;
    for (const section of document.querySelectorAll("#history section")) section.classList.add("hidden");
    return;
  }
  const statuses = await Promise.all(all.map(fetchStatus));
  all.forEach((game, i) => {
    const li = item(game, statuses[i]);
    (statuses[i].over === true ? done : open).append(li);
  });
  refreshEmpty();
}

start();
