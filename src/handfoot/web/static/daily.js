// The daily deal: today's fixed deal for everyone (POST /api/daily) and the leaderboard of
// any date (GET /api/daily/{date}); a day's seed is shown once the day is over.

import {esc, number} from "/static/text.js";
import {games, parseLink, rememberGame} from "/static/links.js";

const $ = (id) => document.getElementById(id);
const today = $("daily").dataset.today;
const NAME_KEY = "handfoot.name";

function dateText(iso) {
  const d = new Date(`${iso}T12:00:00Z`);
  return d.toLocaleDateString("en-GB", {weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC"});
}

function shiftDate(iso, days) {
  const d = new Date(`${iso}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function resetsText() {
  const now = new Date();
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  const minutes = Math.max(0, Math.round((midnight - now.getTime()) / 60000));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `A new deal in ${h ? `${h} h ` : ""}${m} min.`;
}

const BOT_WORDS = {
  random: "random", easy: "easy", normal: "normal", hard: "hard", expert: "expert", learned: "learned",
};

function settingsItems(settings) {
  if (!settings || typeof settings !== "object") return [];
  const items = [];
  if (settings.profile_title || settings.profile) items.push(settings.profile_title || settings.profile);
  let seats = null;
  if (Array.isArray(settings.seats)) {
    const bots = settings.seats.slice(1).map((s) => (typeof s === "string" ? s : s.level || s.kind));
    const levels = [...new Set(bots)];
    if (levels.length === 1 && BOT_WORDS[levels[0]]) {
      seats = settings.layout === "2x2" ? `you and a ${levels[0]} bot partner against two ${levels[0]} bots` : `you against ${levels[0]} bots`;
    }
  }
  if (seats) items.push(seats);
  else if (settings.layout) items.push(`seating ${settings.layout}`);
  if (settings.rounds) items.push(`${settings.rounds} round${settings.rounds === 1 ? "" : "s"}`);
  for (const [k, v] of Object.entries(settings)) {
    if (["profile", "profile_title", "layout", "seats", "rounds", "absent"].includes(k)) continue;
    if (v === null || typeof v === "object") continue;
    items.push(`${k.replaceAll("_", " ")}: ${v}`);
  }
  return items;
}

async function loadBoard(date) {
  const board = $("board");
  const seedNote = $("seed-note");
  $("board-date").value = date;
  $("day-next").disabled = date >= today;
  $("board-title").textContent = date === today ? "Today's leaderboard" : `Leaderboard of ${dateText(date)}`;
  board.innerHTML = `<p class="muted">Loading…</p>`;
  seedNote.textContent = "";
  let data;
  try {
    const r = await fetch(`/api/daily/${encodeURIComponent(date)}`);
    data = await r.json().catch(() => null);
    if (!r.ok) throw new Error((data && data.error) || `the server answered ${r.status}`);
  } catch (err) {
    board.innerHTML = `<div class="notice error" role="alert"><p>The leaderboard could not be loaded: ${esc(err.message)}</p></div>`;
    return null;
  }
  if ($("board-date").value !== date) return data; // a later click won
  const rows = [...(data.leaderboard || [])].sort((a, b) => (b.finished - a.finished) || (b.score - a.score));
  if (!rows.length) {
    board.innerHTML = `<p class="muted">${date === today ? "Nobody has finished today's deal yet: be the first." : "Nobody played the deal of that day."}</p>`;
  } else {
    // equal scores share a place, the next score takes the place after them (1, 1, 3)
    let place = 0;
    let seen = 0;
    let last = null;
    const ranks = rows.map((row) => {
      if (!row.finished) return "";
      seen += 1;
      if (Number(row.score) !== last) place = seen;
      last = Number(row.score);
      return place;
    });
    board.innerHTML = `<div class="table-scroll"><table class="data-table">
      <thead><tr><th scope="col">#</th><th scope="col">Name</th><th scope="col" class="num">Score</th><th scope="col">Result</th></tr></thead>
      <tbody>${rows.map((row, i) => {
        const place = ranks[i];
        const result = !row.finished ? `<span class="badge live">still playing</span>` : row.won ? `<span class="badge ok">won</span>` : `<span class="badge">lost</span>`;
        return `<tr><td class="rank">${place}</td><td>${esc(row.name)}</td><td class="num">${row.finished ? number(Number(row.score)) : ""}</td><td>${result}</td></tr>`;
      }).join("")}</tbody></table></div>`;
  }
  if (data.seed !== null && data.seed !== undefined) {
    seedNote.innerHTML = `The deal of this day came from seed <code class="seed">${esc(data.seed)}</code>, published now that the day is over.`;
  } else if (date === today) {
    seedNote.textContent = "Today's seed stays secret until the day is over (UTC), so nobody can look up the cards.";
  }
  return data;
}

async function playToday(e) {
  e.preventDefault();
  const status = $("daily-status");
  const name = $("daily-name").value.trim();
  if (!name) {
    status.innerHTML = `<div class="notice error" role="alert"><p>Type the name to show on the leaderboard.</p></div>`;
    $("daily-name").focus();
    return;
  }
  try { localStorage.setItem(NAME_KEY, name); } catch { /* private mode */ }
  const button = $("daily-play");
  button.disabled = true;
  button.textContent = "Dealing…";
  status.replaceChildren();
  try {
    const r = await fetch("/api/daily", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({name})});
    const data = await r.json().catch(() => null);
    if (!r.ok || !data || !data.link) throw new Error((data && data.error) || `the server answered ${r.status}`);
    rememberGame({game_id: data.game_id, link: data.link, role: "player", seat: 0, name, profile: `daily ${today}`});
    window.location.assign(data.link);
  } catch (err) {
    status.innerHTML = `<div class="notice error" role="alert"><p><strong>Today's deal could not start:</strong> ${esc(err.message)}</p></div>`;
    button.disabled = false;
    button.textContent = "Play today's deal";
  }
}

/** Today's game played in this browser: back to it while it goes on, its score once over. */
async function showMine(mine) {
  const box = $("daily-status");
  const link = `<a href="${esc(mine.link)}">`;
  box.innerHTML = `<p class="notice mine">You have started today's deal in this browser: ${link}go back to your game</a>.</p>`;
  const parsed = parseLink(mine.link);
  if (!parsed) return;
  let status = null;
  try {
    const r = await fetch(`/api/games/${encodeURIComponent(mine.game_id)}/status`, {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({token: parsed.token}),
    });
    status = r.ok ? await r.json() : null;
  } catch { /* the server does not answer: the link stays */ }
  if (!status || !status.over) return;
  const score = Array.isArray(status.totals) ? status.totals[0] : null;
  const won = Array.isArray(status.winners) && status.winners.includes(0);
  box.innerHTML = `<p class="notice mine">You have played today's deal${score === null ? "" : `: ${number(Number(score))} points, ${won ? "a win" : "a loss"}`}. ` +
    `${link}See the end of your game</a>; a new deal comes at midnight (UTC).</p>`;
}

async function profileTitles() {
  try {
    const r = await fetch("/api/profiles");
    const data = await r.json();
    return Object.fromEntries(data.profiles.map((p) => [p.name, p.title]));
  } catch {
    return {};
  }
}

async function start() {
  $("today-text").textContent = dateText(today);
  $("resets").textContent = resetsText();
  try { $("daily-name").value = localStorage.getItem(NAME_KEY) || ""; } catch { /* private mode */ }
  $("daily-form").addEventListener("submit", playToday);
  $("day-prev").addEventListener("click", () => loadBoard(shiftDate($("board-date").value || today, -1)));
  $("day-next").addEventListener("click", () => loadBoard(shiftDate($("board-date").value || today, 1)));
  $("day-today").addEventListener("click", () => loadBoard(today));
  $("board-date").addEventListener("change", () => {
    const d = $("board-date").value;
    if (/^\d{4}-\d{2}-\d{2}$/.test(d)) loadBoard(d > today ? today : d);
  });
  const mine = games().find((g) => g.profile === `daily ${today}` && g.role === "player");
  const [data, titles] = await Promise.all([loadBoard(today), profileTitles(), mine ? showMine(mine) : null]);
  if (data && data.settings && titles[data.settings.profile]) data.settings.profile_title = titles[data.settings.profile];
  const items = settingsItems(data && data.settings);
  if (items.length) $("settings").innerHTML = items.map((t) => `<li>${esc(t)}</li>`).join("");
}

start();
