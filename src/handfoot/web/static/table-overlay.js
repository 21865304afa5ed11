// Between rounds and at the end of the game: the round's breakdown line by line, the running
// totals as a chart (chart.js, as on the replay and the score keeper's pages), each player's
// statistics, and Continue, Rematch or Replay.

import { lineChart } from "./chart.js";
import {
  $, app, isSpectator, mySide, players, rematchLink, seatName, sideName, sideOf, sides,
} from "./table-state.js";
import { esc, number } from "./text.js";

export function renderOverlay() {
  const v = app.view;
  const el = $("#overlay");
  const over = v.phase === "game_over";
  const results = v.results || [];
  const show = (over || !!app.waiting) && results.length;
  $("#btn-show-scores").hidden = !(show && app.overlayHidden);
  if (!show || app.overlayHidden) {
    el.hidden = true;
    setModal(null);
    return;
  }
  const opening = el.hidden;
  el.hidden = false;
  const last = results[results.length - 1];
  if (app.summaryDone !== last.round) {
    // first the round's summary (who went out, the books, the points counting up)
    const fresh = el.dataset.summary !== String(last.round) || opening;
    if (fresh) {
      el.dataset.summary = String(last.round);
      el.innerHTML = summaryCard(last, results[results.length - 2]);
      countUp(el);
      // on to the breakdown by itself after a while, if nobody pressed the button
      clearTimeout(summaryTimer);
      const round = last.round;
      summaryTimer = setTimeout(() => { if (app.summaryDone !== round && el.dataset.summary === String(round)) summaryNext(); }, SUMMARY_MS);
    }
    setModal(el);
    if (fresh || !el.contains(document.activeElement)) $("#btn-summary-next")?.focus({ preventScroll: true });
    return;
  }
  delete el.dataset.summary;
  const names = Array.from({ length: sides() }, (_, s) => sideName(s));
  const [head, foot] = over ? gameOver(last) : roundOver(last);
  // a modal dialog: the table behind it is inert, its Replay (or Continue) the first stop
  el.innerHTML = `<div class="overlay-card" role="dialog" aria-modal="true" aria-labelledby="overlay-title" tabindex="-1">` +
    `<div id="overlay-title">${head}</div>` +
    overlayTabs(over && Array.isArray(v.stats) && v.stats.length) +
    `<div class="overlay-body" data-tab="${app.overlayTab}"><div class="col col-breakdown" id="ov-breakdown" role="tabpanel">${breakdownTable(last)}</div>` +
    `<div class="col col-chart" id="ov-chart" role="tabpanel"><h3>Scores by round</h3><div class="tb-chart-box"></div></div>` +
    (over ? `<div class="col col-players" id="ov-players" role="tabpanel">${statsTable(v.stats)}</div>` : "") + `</div>` + foot +
    `<button type="button" class="overlay-x" id="btn-hide-overlay">Look at the table</button></div>`;
  const series = names.map((label, s) => ({ label, values: [0, ...results.map((r) => r.totals?.[s] ?? 0)] }));
  $("#overlay .tb-chart-box").append(lineChart(series, { width: 360, height: 200 }));
  setModal(el);
  // between rounds Continue has the focus; at the end the dialog itself (its title is read),
  // so that the first Tab goes to Replay
  const focusTarget = $("#btn-continue") || $("#overlay .overlay-card");
  if (focusTarget && (opening || !el.contains(document.activeElement))) focusTarget.focus({ preventScroll: true });
}

/** How long the round's summary shows before the breakdown follows by itself. */
const SUMMARY_MS = 5000;
let summaryTimer = null;

const BOOK_KEYS = [["special_books", "special"], ["clean_books", "clean"], ["dirty_books", "dirty"], ["wild_books", "wild"]];

/** The round's summary: who went out, each side's books, and its points going into the
 * totals (counted up, see countUp), then "See the breakdown". */
function summaryCard(result, before) {
  const how = result.went_out !== null && result.went_out !== undefined
    ? `${esc(seatName(result.went_out))} went out` : esc(capital(result.reason || "the round is over"));
  const sides = (result.scores || []).map((sc) => {
    const line = (key) => (sc.lines || []).find((l) => l.key === key);
    const books = BOOK_KEYS.map(([key, kind]) => [kind, Number(line(key)?.count || 0)]).filter(([, n]) => n > 0);
    const prev = before?.totals?.[sc.side] ?? 0;
    const total = result.totals?.[sc.side] ?? prev + sc.total;
    const mine = sc.side === mySide() && !isSpectator();
    return `<section class="sum-side${mine ? " mine" : ""}" aria-label="${esc(sideName(sc.side))}">` +
      `<h3>${esc(sideName(sc.side))}${mine ? " (you)" : ""}</h3>` +
      `<div class="sum-books">${books.length ? books.map(([k, n]) => `<span class="sum-book ${k === "special" ? "clean" : k}">${n} ${k}</span>`).join("") : '<span class="sum-none">no books</span>'}</div>` +
      `<p class="sum-points"><span class="sum-round${sc.total < 0 ? " neg" : ""}">${sc.total < 0 ? "" : "+"}${number(sc.total)}</span>` +
      `<span class="sum-arrow" aria-hidden="true">→</span><span class="visually-hidden">, total </span>` +
      `<span class="sum-total" data-from="${prev}" data-to="${total}">${number(total)}</span></p></section>`;
  }).join("");
  const v = app.view;
  const over = v.phase === "game_over";
  return `<div class="overlay-card summary" role="dialog" aria-modal="true" aria-labelledby="overlay-title" tabindex="-1">` +
    `<h2 id="overlay-title">Round ${result.round} of ${v.rounds}</h2>` +
    `<p class="sum-out">${how}</p><div class="sum-sides">${sides}</div>` +
    `<div class="continue-row"><button type="button" class="btn btn-primary" id="btn-summary-next">${over ? "See the result" : "See the breakdown"}</button></div></div>`;
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** The totals count up from the last round's to this one's (at once under reduced motion). */
function countUp(root) {
  const items = [...root.querySelectorAll(".sum-total")];
  if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return;
  const start = performance.now();
  const LENGTH = 900;
  const step = (now) => {
    const t = Math.min(1, (now - start) / LENGTH);
    const ease = 1 - (1 - t) ** 3;
    for (const el of items) {
      if (!el.isConnected) return;
      const from = Number(el.dataset.from);
      const to = Number(el.dataset.to);
      el.textContent = number(Math.round(from + (to - from) * ease));
    }
    if (t < 1) requestAnimationFrame(step);
  };
  for (const el of items) el.textContent = number(Number(el.dataset.from));
  requestAnimationFrame(step);
}

/** The summary seen: on to the breakdown. */
export function summaryNext() {
  const results = app.view?.results || [];
  app.summaryDone = results[results.length - 1]?.round ?? null;
  renderOverlay();
}

/** Everything on the page but `dialog` (and what holds it) inert; null: nothing. */
function setModal(dialog) {
  document.querySelectorAll("[data-inert-by-overlay]").forEach((e) => {
    e.inert = false;
    e.removeAttribute("data-inert-by-overlay");
  });
  for (let node = dialog; node && node !== document.body; node = node.parentElement) {
    for (const sib of node.parentElement?.children || []) {
      if (sib === node || sib.inert || ["SCRIPT", "DIALOG"].includes(sib.tagName)) continue;
      sib.inert = true;
      sib.setAttribute("data-inert-by-overlay", "");
    }
  }
}

/** The head and foot of the last screen: who won, then Replay, Rematch, New game. */
function gameOver(last) {
  const v = app.view;
  const totals = last.totals || [];
  const best = Math.max(...totals);
  const winners = Array.isArray(v.winners) && v.winners.length ? v.winners :
    totals.map((t, i) => (t === best ? i : -1)).filter((i) => i >= 0);
  const mine = winners.includes(mySide()) && !isSpectator();
  const seatsOf = (side) => Array.from({ length: players() }, (_, s) => s).filter((s) => sideOf(s) === side);
  // the winners named as the scoreline and the totals under the title name the sides
  let title;
  if (winners.length > 1) title = `A tie: ${winners.map((s) => esc(sideName(s))).join(" and ")}`;
  else title = `${esc(sideName(winners[0]))} ${seatsOf(winners[0]).length > 1 ? "win" : "wins"}`;
  const you = seatsOf(mySide()).length > 1 ? "your side" : "you";
  if (mine) title += winners.length > 1 ? ` (${you === "you" ? "you share" : "your side shares"} the win)` : ` — ${you} won!`;
  const head = `<div class="banner ${mine ? "won" : ""}"><span class="trophy" aria-hidden="true">★</span><h2>${title}</h2>` +
    `<p>${totals.map((t, i) => `${esc(sideName(i))} ${number(t)}`).join(" · ")}</p></div>`;
  const id = encodeURIComponent(app.gameId);
  const foot = `<div class="endlinks"><a class="btn" href="/replay/${id}">Replay</a>` +
    `<a class="btn" href="/api/games/${id}/record" download="handfoot-${id}.json">Download record</a>` +
    (app.rematch ? `<a class="btn btn-primary" id="btn-join-rematch" href="${esc(rematchLink())}">${isSpectator() ? "Watch" : "Join"} the rematch</a>` :
      isSpectator() ? "" : `<button type="button" class="btn btn-primary" id="btn-rematch">Rematch</button>`) +
    `<a class="btn" href="/">New game</a></div>`;
  return [head, foot];
}

/** The head and foot between rounds: the totals, then Continue and who is still to press it. */
function roundOver(last) {
  const v = app.view;
  const waitingFor = app.waiting?.continue || [];
  const mustPress = !isSpectator() && waitingFor.includes(app.seat);
  const others = waitingFor.filter((s) => s !== app.seat).map((s) => esc(seatName(s)));
  const totals = last.totals || [];
  const head = `<h2>Round ${app.waiting?.round ?? last.round} of ${v.rounds} is over</h2>` +
    `<p class="ov-totals">${totals.map((t, i) => `<span${i === mySide() && !isSpectator() ? ' class="mine"' : ""}>${esc(sideName(i))} <b>${number(t)}</b></span>`).join("")}</p>`;
  const foot = `<div class="continue-row">` +
    (mustPress ? `<button type="button" class="btn btn-primary" id="btn-continue">Continue <kbd>C</kbd></button>` :
      isSpectator() ? "" : `<span class="ready">✓ you are ready</span>`) +
    (others.length ? `<span class="wait-for">waiting for ${others.join(", ")}</span>` : "") + `</div>`;
  return [head, foot];
}

function breakdownTable(result) {
  const scores = result.scores || [];
  const keys = [];
  const labels = {};
  for (const s of scores) {
    for (const line of s.lines || []) {
      if (!keys.includes(line.key)) keys.push(line.key);
      labels[line.key] = line.label;
    }
  }
  // each side's count and points in columns of their own: "3" books, "1,500" points in all
  const cell = (s, key) => {
    const line = (s.lines || []).find((l) => l.key === key);
    if (!line) return `<td class="num count">–</td><td class="num">–</td>`;
    const has = line.count !== undefined && line.count !== null && line.count !== "";
    return `<td class="num count">${has ? number(line.count) : ""}</td>` +
      `<td class="num${line.points < 0 ? " neg" : ""}">${number(line.points)}</td>`;
  };
  const totals = result.totals || [];
  const how = result.went_out !== null && result.went_out !== undefined ? `${seatName(result.went_out)} went out` : result.reason || "";
  const mine = (s) => (s.side === mySide() && !isSpectator() ? ' class="mine"' : "");
  const sum = (value) => `<td class="count"></td><td class="num">${number(value)}</td>`;
  return `<table class="breakdown"><caption>Round ${result.round}: ${esc(how)}</caption>` +
    `<thead><tr><th scope="col" rowspan="2">Score</th>${scores.map((s) => `<th scope="colgroup" colspan="2"${mine(s)}>${esc(sideName(s.side))}</th>`).join("")}</tr>` +
    `<tr class="sub">${scores.map(() => '<th scope="col" class="count">count</th><th scope="col">points</th>').join("")}</tr></thead>` +
    `<tbody>${keys.map((k) => `<tr><th scope="row">${esc(labels[k])}</th>${scores.map((s) => cell(s, k)).join("")}</tr>`).join("")}</tbody>` +
    `<tfoot><tr class="round-total"><th scope="row">This round</th>${scores.map((s) => sum(s.total)).join("")}</tr>` +
    `<tr class="game-total"><th scope="row">Game total</th>${scores.map((s) => sum(totals[s.side])).join("")}</tr></tfoot></table>`;
}

function statsTable(stats) {
  if (!Array.isArray(stats) || !stats.length) return "";
  const cols = [];
  for (const row of stats) for (const k of Object.keys(row)) if (!["seat", "name", "side"].includes(k) && !cols.includes(k)) cols.push(k);
  const names = { pickups: "pile pickups", books: "books made", melded: "points melded" };
  const label = (k) => names[k] || k.replace(/_/g, " ");
  return `<table class="stats"><caption>Player statistics</caption><thead><tr><th scope="col">Player</th>${cols.map((c) => `<th scope="col">${esc(label(c))}</th>`).join("")}</tr></thead>` +
    `<tbody>${stats.map((r) => `<tr><th scope="row">${esc(seatName(r.seat))}</th>${cols.map((c) => `<td class="num">${typeof r[c] === "boolean" ? (r[c] ? "yes" : "no") : number(r[c])}</td>`).join("")}</tr>`).join("")}</tbody></table>`;
}

// On a phone the breakdown, the chart and the players' statistics are tabs under the
// totals (each is a screen's worth); a wide screen shows them side by side, no tabs.
function overlayTabs(withPlayers) {
  const tabs = [["breakdown", "Breakdown"], ["chart", "Chart"]];
  if (withPlayers) tabs.push(["players", "Players"]);
  if (!tabs.some(([id]) => id === app.overlayTab)) app.overlayTab = "breakdown";
  return `<div class="ov-tabs" role="tablist" aria-label="round results">${tabs.map(([id, label]) =>
    `<button type="button" role="tab" class="ov-tab" data-tab="${id}" aria-controls="ov-${id}" ` +
    `aria-selected="${id === app.overlayTab}">${label}</button>`).join("")}</div>`;
}

export function showOverlayTab(id) {
  app.overlayTab = id;
  const body = $("#overlay .overlay-body");
  if (body) body.dataset.tab = id;
  document.querySelectorAll("#overlay .ov-tab").forEach((b) => b.setAttribute("aria-selected", String(b.dataset.tab === id)));
}
