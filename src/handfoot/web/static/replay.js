// The replay viewer: every move of a finished game, every hand face up.
// Loads GET /api/games/{id}/replay ({record, frames}; docs/web.md, "Replay frames").

import {cardSvg, sortHand} from "/static/cards.js";
import {lineChart} from "/static/chart.js";
import {startReview} from "/static/review.js";
import {esc, number} from "/static/text.js";
import {distinctNames, pickupSize, seatPlace} from "/static/words.js";

const $ = (id) => document.getElementById(id);
const root = $("replay");
const gameId = root.dataset.game;

const view = {frames: [], record: null, index: 0, timer: null, names: []};

// --- drawing --------------------------------------------------------------------------------

function fan(codes, {width = 44, sort = true, label = ""} = {}) {
  if (!codes || !codes.length) return `<span class="muted small">none</span>`;
  const list = sort ? sortHand(codes) : codes;
  return `<div class="fan" role="list" aria-label="${esc(label)}">` +
    list.map((c) => `<span class="fan-card" role="listitem">${cardSvg(c, {width})}</span>`).join("") + "</div>";
}

function meldHtml(meld) {
  const kind = meld.book ? `${meld.book} book` : `${meld.size}/${meld.book_size}`;
  const what = meld.target === "JK" || meld.label === "wild" ? "wild cards" : meld.label;
  const badge = meld.book ? `<span class="badge ${meld.book === "clean" ? "ok" : meld.book === "wild" ? "live" : ""}">${esc(kind)}</span>`
    : `<span class="badge">${esc(kind)}</span>`;
  const cards = meld.cards.slice(0, 8).map((c) => `<span class="stack-card">${cardSvg(c, {width: 34})}</span>`).join("");
  const more = meld.cards.length > 8 ? `<span class="small muted">+${meld.cards.length - 8}</span>` : "";
  return `<li class="meld${meld.book ? " is-book" : ""}"><div class="stack" aria-hidden="true">${cards}${more}</div>` +
    `<div class="meld-label">${esc(what)} ${badge}</div></li>`;
}

function seatName(seat) {
  return view.names[seat] || `Seat ${seat + 1}`;
}

/** A side's name; seats that share a name ("Hard bot") are named by where they sit. */
function sideLabel(state, side) {
  const raw = (view.record.seats || []).map((x) => x.name);
  const shared = raw.some((n, i) => raw.indexOf(n) !== i);
  if (!shared && state.side_names && state.side_names[side]) return state.side_names[side];
  const seats = [];
  for (let seat = side; seat < state.players; seat += state.sides) {
    seats.push(raw.filter((n) => n === raw[seat]).length > 1 ? seatPlace(seat, state.players) : seatName(seat));
  }
  return seats.join(" and ") || `Side ${side + 1}`;
}

function packetText(p, state, seat) {
  const parts = [];
  const playing = p.playing || (p.in_foot ? "foot" : "hand");
  parts.push(`playing the ${playing === "foot" ? "Foot" : playing === "knee" ? "Knee" : "Hand"}`);
  const knees = (playing === "hand" && state.knees && state.knees[seat]) || [];
  const feet = (!p.in_foot && state.feet && state.feet[seat]) || [];
  if (knees.length) parts.push(`Knee waiting (${knees.length})`);
  if (feet.length) parts.push(`Foot waiting (${feet.length})`);
  return parts.join(" · ");
}

function renderCentre(frame) {
  const s = frame.state;
  const top = s.discard && s.discard.top;
  const pile = top ? cardSvg(top, {width: 52}) : `<div class="empty-pile">empty</div>`;
  // Spectator views give each side's minimum (opening_minimums); a seat's view its own.
  const mins = s.opening_minimums || (s.opening_minimum ? [s.opening_minimum] : []);
  const minimum = !mins.length || s.phase === "game_over" ? ""
    : new Set(mins).size === 1 ? `Opening minimum ${number(mins[0])}` : `Opening minimums ${mins.map(number).join(" / ")}`;
  $("centre").innerHTML = `
    <div class="centre-item"><div class="centre-label">Round</div><div class="centre-big">${s.round} <span class="small">of ${s.rounds}</span></div></div>
    <div class="centre-item"><div class="centre-label">Discard pile</div><div class="pile">${pile}</div>
      <div class="small">${s.discard ? s.discard.size : 0} card${s.discard && s.discard.size === 1 ? "" : "s"}${s.discard && s.discard.pickup_size ? ` · ${pickupSize(s.discard.pickup_size)}` : ""}</div></div>
    <div class="centre-item"><div class="centre-label">Stock</div><div class="centre-big">${s.stock}</div><div class="small">cards</div></div>
    <div class="centre-item"><div class="centre-label">To play</div><div class="centre-big small-name">${s.phase === "game_over" ? "game over" : esc(seatName(s.to_act))}</div><div class="small">${esc(minimum)}</div></div>`;
}

function renderSides(frame) {
  const s = frame.state;
  const html = [];
  for (let side = 0; side < s.sides; side++) {
    const seats = [];
    for (let seat = side; seat < s.players; seat += s.sides) seats.push(seat);
    const sideName = sideLabel(s, side);
    const total = s.scores && s.scores.totals ? s.scores.totals[side] : 0;
    const melds = (s.melds && s.melds[side]) || [];
    const reds = (s.red_threes && s.red_threes[side]) || [];
    const opened = s.opened && s.opened[side];
    const melded = s.scores && s.scores.melded ? s.scores.melded[side] : 0;
    const seatHtml = seats.map((seat) => {
      const p = (s.packets && s.packets[seat]) || {};
      const acting = seat === s.to_act && s.phase !== "game_over";
      const moved = seat === frame.seat;
      const hand = (s.hands && s.hands[seat]) || [];
      // A packet still waiting (the Foot once picked up is part of "hands").
      const foot = (!p.in_foot && s.feet && s.feet[seat]) || [];
      const knee = ((p.playing === "hand" || p.playing === undefined) && s.knees && s.knees[seat]) || [];
      return `<div class="seat${acting ? " acting" : ""}${moved ? " moved" : ""}">
        <div class="seat-head">${seats.length > 1 ? `<strong>${esc(seatName(seat))}</strong>` : ""}
          ${acting ? `<span class="badge live">to play</span>` : ""}${moved ? `<span class="badge">just moved</span>` : ""}
          <span class="small muted">${esc(packetText(p, s, seat))}</span></div>
        <div class="seat-cards">${fan(hand, {label: `${seatName(seat)}'s cards`})}</div>
        ${knee.length ? `<details class="waiting"><summary>Knee, not picked up yet (${knee.length} cards)</summary>${fan(knee, {width: 30, label: "Knee"})}</details>` : ""}
        ${foot.length ? `<details class="waiting"><summary>Foot, not picked up yet (${foot.length} cards)</summary>${fan(foot, {width: 30, label: "Foot"})}</details>` : ""}
      </div>`;
    }).join("");
    html.push(`<section class="panel side" aria-label="${esc(sideName)}">
      <div class="spread side-head"><h2>${esc(sideName)}</h2><span class="side-score"><span class="small muted">total</span> ${number(total)}</span></div>
      <p class="small muted">${opened ? "Has opened this round" : "Has not opened yet"}${melded ? ` · ${number(melded)} points melded this round` : ""}</p>
      ${melds.length ? `<ul class="melds">${melds.map(meldHtml).join("")}</ul>` : `<p class="muted small">No melds yet.</p>`}
      ${reds.length ? `<div class="reds"><span class="small">Red 3s</span>${fan(reds, {width: 30, sort: false, label: "red 3s"})}</div>` : ""}
      ${seatHtml}
    </section>`);
  }
  $("sides").innerHTML = html.join("");
}

function renderRoundEnd(frame, prev) {
  const box = $("round-end");
  const results = frame.state.results || [];
  const ended = results.length > ((prev && prev.state.results) || []).length || (frame.state.phase === "game_over");
  if (!ended || !results.length) {
    box.replaceChildren();
    return;
  }
  const r = results[results.length - 1];
  const s = frame.state;
  const name = (side) => sideLabel(s, side);
  const rows = r.scores.map((sc) => `<section class="breakdown-side"><h3>${esc(name(sc.side))}: ${number(sc.total)}</h3>
    <table class="data-table small"><tbody>${sc.lines.filter((l) => l.points || l.count).map((l) => `<tr><td>${esc(l.label)}</td><td class="num">${l.count ?? ""}</td><td class="num">${number(l.points)}</td></tr>`).join("")}</tbody></table></section>`).join("");
  const REASONS = {"went out": "", "stock exhausted": "The stock ran out. ", "red 3 not replaced": "A red 3 could not be replaced from the stock. ", "stalled": "Nobody drew from the stock or laid a card for too many turns in a row. "};
  const who = (r.went_out === null || r.went_out === undefined ? "" : `${seatName(r.went_out)} went out. `)
    + (REASONS[r.reason] ?? `The round ended: ${r.reason}. `);
  let winner = "";
  if (s.phase === "game_over") {
    const best = Math.max(...r.totals);
    const top = r.totals.map((t, i) => [t, i]).filter(([t]) => t === best).map(([, i]) => name(i));
    winner = top.length > 1 ? ` A tie: ${top.join(" and ")}.` : ` ${top[0]} win${/ and /.test(top[0]) ? "" : "s"} the game.`;
  }
  box.innerHTML = `<section class="panel round-end" aria-label="Round ${r.round} result">
    <h2>Round ${r.round} is over${s.phase === "game_over" ? ": game over" : ""}</h2>
    <p>${esc(who)}Totals: ${r.totals.map((t, i) => `${esc(name(i))} ${number(t)}`).join(", ")}.<strong>${esc(winner)}</strong></p>
    <div class="grid-2">${rows}<div class="chart-box"></div></div></section>`;
  const series = r.totals.map((_, side) => ({label: name(side), values: [0, ...results.map((x) => x.totals[side])]}));
  box.querySelector(".chart-box").append(lineChart(series, {title: "Scores after each round"}));
}

function caption(frame) {
  if (frame.move === null || frame.move === undefined) {
    return `<strong>Round ${frame.round ?? frame.state.round}: the deal.</strong> Every hand is shown face up.`;
  }
  // in people's words ("discarded a 10"), as the server words the move (a frame without
  // them shows the notation as it is: it is never read back here); the notation on hover
  return `<strong>${esc(seatName(frame.seat))}</strong> <span title="${esc(frame.move)}">${esc(frame.words ?? frame.move)}</span>`;
}

/** What was said after this frame's move (its `talk`), as text only: never HTML. */
function renderTalk(frame) {
  const box = $("replay-talk");
  const items = frame.talk || [];
  box.hidden = !items.length;
  box.replaceChildren(...items.map((item) => {
    const line = document.createElement("li");
    const who = document.createElement("b");
    who.textContent = `${item.seat === null || item.seat === undefined ? item.name : seatName(item.seat)}: `;
    const text = document.createElement("span");
    text.textContent = item.text ?? "";
    line.append(who, text);
    return line;
  }));
}

function render() {
  const i = view.index;
  const frame = view.frames[i];
  renderCentre(frame);
  renderSides(frame);
  renderRoundEnd(frame, view.frames[i - 1]);
  $("move-caption").innerHTML = caption(frame);
  renderTalk(frame);
  const moves = view.frames.length - 1;
  $("position").textContent = `Move ${i} of ${moves} · round ${frame.round ?? frame.state.round}`;
  $("slider").value = String(i);
  $("slider").setAttribute("aria-valuetext", `Move ${i} of ${moves}`);
  $("first").disabled = $("prev").disabled = i === 0;
  $("next").disabled = $("last").disabled = i === moves;
  history.replaceState(null, "", `#m=${i}`);
}

// --- stepping -------------------------------------------------------------------------------

function go(i) {
  view.index = Math.max(0, Math.min(view.frames.length - 1, i));
  render();
  if (view.index === view.frames.length - 1) stop();
}

function nextRound() {
  const here = view.frames[view.index].state.round;
  const j = view.frames.findIndex((f, k) => k > view.index && (f.state.round !== here || (f.move === null && k > 0)));
  go(j < 0 ? view.frames.length - 1 : j);
}

function play() {
  if (view.index === view.frames.length - 1) go(0);
  const button = $("autoplay");
  button.textContent = "Pause";
  button.setAttribute("aria-pressed", "true");
  const tick = () => {
    go(view.index + 1);
    if (view.timer !== null) view.timer = setTimeout(tick, Number($("speed").value));
  };
  view.timer = setTimeout(tick, Number($("speed").value));
}

function stop() {
  if (view.timer !== null) clearTimeout(view.timer);
  view.timer = null;
  const button = $("autoplay");
  button.textContent = "Play";
  button.setAttribute("aria-pressed", "false");
}

function toggle() {
  if (view.timer === null) play();
  else stop();
}

function keys(e) {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const t = e.target;
  if (t && (t.tagName === "INPUT" && t.type !== "range" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
  if (t && t.type === "range" && ["ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key)) return; // the slider itself
  const actions = {
    ArrowLeft: () => go(view.index - 1),
    ArrowRight: () => go(view.index + 1),
    Home: () => go(0),
    End: () => go(view.frames.length - 1),
    " ": () => toggle(),
    n: () => nextRound(),
    N: () => nextRound(),
  };
  if (t && t.tagName === "BUTTON" && e.key === " ") return; // Space presses the focused button
  const act = actions[e.key];
  if (act) {
    e.preventDefault();
    if (e.key !== " ") stop();
    act();
  }
}

// --- start ----------------------------------------------------------------------------------

/** The rule set's title ("Partnership Hand and Foot, 13-card packets") from /api/profiles;
 * house rules keep their own name. */
async function profileTitle(name) {
  if (!name) return "";
  try {
    const r = await fetch("/api/profiles");
    const data = await r.json();
    const p = (data.profiles || []).find((x) => x.name === name);
    return p && p.title ? p.title : name;
  } catch {
    return name;
  }
}

async function start() {
  const status = $("replay-status");
  let data;
  try {
    const r = await fetch(`/api/games/${encodeURIComponent(gameId)}/replay`);
    data = await r.json().catch(() => null);
    if (!r.ok) {
      const why = (data && data.error) || `the server answered ${r.status}`;
      const notOver = r.status === 403;
      status.innerHTML = `<div class="notice error" role="alert"><p><strong>${notOver ? "This game is still being played." : "This replay cannot be shown:"}</strong> ${esc(why)}.</p>
        <p>${notOver ? "The replay opens once the game is over, so no hidden card is shown while it is played. " : ""}<a href="/history">Your games</a></p></div>`;
      $("download").classList.add("hidden");
      return;
    }
  } catch {
    status.innerHTML = `<div class="notice error" role="alert"><p>The server does not answer. Is handfoot serve still running?</p></div>`;
    return;
  }
  if (!data || !Array.isArray(data.frames) || !data.frames.length) {
    status.innerHTML = `<div class="notice error" role="alert"><p>This game has no moves to show.</p></div>`;
    return;
  }
  view.frames = data.frames;
  view.record = data.record || {};
  // seats that share a name ("Hard bot") are told apart by where they sit, as the lobby does
  view.names = distinctNames((view.record.seats || []).map((s) => s.name));
  const profile = view.record.profile || {};
  let title = profile.title || await profileTitle(profile.name);
  // the number of rounds is the game's length, chosen beside the rules: not a house rule
  const changed = Object.keys(profile.overrides || {}).filter((k) => k !== "rounds");
  if (title && changed.length) title += ", with house rules";
  const rounds = profile.overrides && profile.overrides.rounds;
  if (title && rounds) title += `, ${rounds} round${rounds === 1 ? "" : "s"}`;
  const layout = /^(\d+)x(\d+)$/.exec(view.record.layout || "");
  const seating = !layout ? view.record.layout : layout[2] === "1" ? `${layout[1]} players, each on their own` : `${layout[1]} teams of ${layout[2]}`;
  const about = [title, seating, view.names.length ? `players ${view.names.join(", ")}` : null].filter(Boolean).join(" · ");
  $("replay-about").textContent = `${about ? `${about}. ` : ""}Every move of the game, with every hand face up.`;
  status.replaceChildren();
  $("replay-player").classList.remove("hidden");
  const slider = $("slider");
  slider.max = String(view.frames.length - 1);
  slider.addEventListener("input", () => {
    stop();
    go(Number(slider.value));
  });
  $("first").addEventListener("click", () => { stop(); go(0); });
  $("prev").addEventListener("click", () => { stop(); go(view.index - 1); });
  $("next").addEventListener("click", () => { stop(); go(view.index + 1); });
  $("last").addEventListener("click", () => { stop(); go(view.frames.length - 1); });
  $("autoplay").addEventListener("click", toggle);
  document.addEventListener("keydown", keys);
  const m = /^#m=(\d+)$/.exec(window.location.hash);
  go(m ? Number(m[1]) : 0);
  startReview({gameId, names: view.names, goToMove: (i, scroll) => {
    stop();
    go(frameBeforeMove(i));
    if (scroll) $("replay-player").scrollIntoView({behavior: "smooth", block: "start"});
  }});
}

/** The frame showing the table just before the record's move ``i`` (0-based): the one
 * before the frame of that move. */
function frameBeforeMove(i) {
  let seen = 0;
  for (let k = 0; k < view.frames.length; k++) {
    if (view.frames[k].move !== null && view.frames[k].move !== undefined) {
      if (seen === i) return Math.max(0, k - 1);
      seen++;
    }
  }
  return view.frames.length - 1;
}

start();
