// The game review on the replay page: choose a player, the review is computed on the server
// in the background (POST /api/games/{id}/review, then GET ...?seat=N until done; docs/web.md,
// "Game review"), then a timeline of that player's decisions with the mistakes marked; at
// each, the move played and the better move on the cards. Clicking a decision shows its
// position in the replay above.

import {cardSvg} from "/static/cards.js";
import {esc, number} from "/static/text.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 1000;
const CLASS_WORDS = {good: "good", inaccuracy: "inaccuracy", mistake: "mistake", blunder: "blunder"};

const state = {gameId: "", names: [], goToMove: () => {}, seat: null, timer: null, review: null, chosen: 0};

function cardsHtml(codes, label) {
  if (!codes || !codes.length) return `<span class="muted small">no cards</span>`;
  return `<span class="review-cards" role="img" aria-label="${esc(label)}">` +
    codes.map((c) => cardSvg(c, {width: 34})).join("") + "</span>";
}

function capitalised(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

function renderSummary(r) {
  const c = r.classes || {};
  return `<div class="review-summary">
      <div><span class="centre-label">Accuracy</span><div class="centre-big">${Math.round(r.accuracy)}</div></div>
      ${r.points_lost === undefined
        ? `<div><span class="centre-label">Points lost a decision</span><div class="centre-big">${number(Math.round(r.mean_loss))}</div></div>`
        : `<div title="The points the marked decisions lost, added up (the mean over every decision: ${esc(String(r.mean_loss))})"><span class="centre-label">Points lost to errors</span><div class="centre-big">${number(Math.round(r.points_lost))}</div></div>`}
      <div><span class="centre-label">Decisions</span><div class="centre-big">${r.decisions}</div></div>
      <div class="review-counts small">
        <span class="badge ok">${c.good || 0} good</span>
        <span class="badge">${c.inaccuracy || 0} inaccurac${c.inaccuracy === 1 ? "y" : "ies"}</span>
        <span class="badge live">${c.mistake || 0} mistake${c.mistake === 1 ? "" : "s"}</span>
        <span class="badge warn">${c.blunder || 0} blunder${c.blunder === 1 ? "" : "s"}</span>
      </div>
    </div>`;
}

// The class lines in points of this game's rules (they scale with what its rounds put at
// stake: docs/review.md, "Classes and accuracy")
function linesText(t) {
  if (!t) return "";
  return ` <span class="muted">(points lost: an inaccuracy from ${number(Math.round(t.inaccuracy))}, ` +
    `a mistake from ${number(Math.round(t.mistake))}, a blunder from ${number(Math.round(t.blunder))})</span>`;
}

function renderTimeline(r) {
  const marks = (r.timeline || []).map((d, i) => {
    const label = `Round ${d.round}, turn ${d.turn}: ${d.played_words}, ${CLASS_WORDS[d.class]}` +
      (d.loss > 0 ? `, ${Math.round(d.loss)} points lost` : "");
    return `<button type="button" class="review-mark ${d.class}${i === state.chosen ? " chosen" : ""}" data-i="${i}"` +
      ` title="${esc(label)}" aria-label="${esc(label)}" aria-pressed="${i === state.chosen}"></button>`;
  }).join("");
  return `<div class="review-timeline" role="group" aria-label="Decisions in order">${marks}</div>
    <p class="small muted review-legend">` +
    ["mistake", "blunder", "inaccuracy", "good"].map((c) =>
      `<span class="review-key"><span class="review-mark ${c}" aria-hidden="true"></span> ${c}</span>`).join(" ") +
    linesText(r.thresholds) + `</p>`;
}

function renderDecision(d) {
  if (!d) return "";
  const same = d.best === d.played;
  const verdict = same ? `<span class="badge ok">the reviewer's move</span>`
    : `<span class="badge ${d.class === "blunder" ? "warn" : d.class === "mistake" ? "live" : d.class === "good" ? "ok" : ""}">${esc(CLASS_WORDS[d.class])}</span>
       <span class="small">${number(Math.round(d.loss))} ± ${number(Math.round(d.se))} points</span>`;
  const better = same ? "" : `<div class="review-move"><div class="centre-label">Better</div>
      ${cardsHtml(d.best_cards, d.best_words)}<div>${esc(capitalised(d.best_words))}</div></div>`;
  return `<div class="review-decision" aria-live="polite">
      <p><strong>Round ${d.round}, turn ${d.turn}</strong> ${verdict}</p>
      <div class="review-moves">
        <div class="review-move"><div class="centre-label">Played</div>
          ${cardsHtml(d.played_cards, d.played_words)}<div>${esc(capitalised(d.played_words))}</div></div>
        ${better}
      </div>
      ${d.why ? `<p class="review-why">${esc(capitalised(d.why))}.</p>` : ""}
      <p class="small"><button type="button" class="linklike review-see">See the table before this move</button> (in the replay above)</p>
    </div>`;
}

function renderCostliest(r) {
  if (!r.costliest || !r.costliest.length) return `<p class="muted small">No costly decision: every move was as good as the reviewer's, or too close to tell.</p>`;
  return `<h3>The costliest decisions</h3><ol class="review-costliest">` + r.costliest.map((d) =>
    `<li><button type="button" class="linklike" data-index="${d.index}">Round ${d.round}, turn ${d.turn}</button>: ${esc(d.played_words)}, ${number(Math.round(d.loss))} points. ${esc(capitalised(d.why))}.</li>`).join("") + "</ol>";
}

function show(r) {
  state.review = r;
  const timeline = r.timeline || [];
  if (state.chosen >= timeline.length) state.chosen = 0;
  $("review-body").innerHTML = renderSummary(r) + renderTimeline(r) +
    `<div id="review-detail">${renderDecision(timeline[state.chosen])}</div>` + renderCostliest(r) +
    `<p class="small muted">Judged by the ${esc(r.reviewer || "learned")} bot from what this player could see, over ${r.samples} re-deals of the hidden cards a decision (${r.draw_samples || r.samples} where the pile could be taken); points are the round's margin (your side's score minus the best other side's).</p>`;
  $("review-body").querySelectorAll(".review-mark[data-i]").forEach((b) => b.addEventListener("click", () => choose(Number(b.dataset.i))));
  $("review-body").querySelectorAll("[data-index]").forEach((b) => b.addEventListener("click", () => {
    const i = timeline.findIndex((d) => d.index === Number(b.dataset.index));
    if (i >= 0) {
      choose(i);
      $("review-detail").scrollIntoView({behavior: "smooth", block: "nearest"});
    }
  }));
}

function choose(i) {
  const timeline = (state.review && state.review.timeline) || [];
  const d = timeline[i];
  if (!d) return;
  state.chosen = i;
  $("review-detail").innerHTML = renderDecision(d);
  $("review-body").querySelectorAll(".review-mark[data-i]").forEach((b) => {
    const on = Number(b.dataset.i) === i;
    b.classList.toggle("chosen", on);
    b.setAttribute("aria-pressed", String(on));
  });
  // the replay above shows the position; the page stays on the decision's detail (a
  // phone's screen holds one or the other: "See the table before this move" goes up)
  state.goToMove(d.index, false);
}

function progress(s) {
  const total = s.total || 0;
  const pct = total ? Math.round((100 * s.done) / total) : 0;
  const who = esc(state.names[state.seat] || `seat ${state.seat + 1}`);
  if (s.waiting > 0) {  // other reviews are computed first, one at a time
    $("review-body").innerHTML = `<p>${who}'s review waits for ${s.waiting} other review${s.waiting === 1 ? "" : "s"} to finish first…</p>
      <progress aria-label="Review waiting"></progress>`;
    return;
  }
  $("review-body").innerHTML = `<p>Reviewing ${who}'s decisions…</p>
    <progress max="100" value="${pct}" aria-label="Review progress">${pct}%</progress>
    <span class="small muted">${s.done || 0} of ${total} moves</span>`;
}

function failed(message) {
  $("review-body").innerHTML = `<div class="notice error" role="alert"><p>${esc(message)}</p></div>`;
}

async function ask(method, seat) {
  const url = `/api/games/${encodeURIComponent(state.gameId)}/review` + (method === "GET" ? `?seat=${seat}` : "");
  const init = method === "POST" ? {method, headers: {"content-type": "application/json"}, body: JSON.stringify({seat})} : {};
  const r = await fetch(url, init);
  const data = await r.json().catch(() => null);
  if (!r.ok) throw new Error((data && data.error) || `the server answered ${r.status}`);
  return data;
}

async function poll(seat) {
  if (seat !== state.seat) return;
  let s;
  try {
    s = await ask("GET", seat);
  } catch (e) {
    failed(`The review cannot be shown: ${e.message}.`);
    return;
  }
  if (seat !== state.seat) return;
  if (s.status === "done" && s.review) {
    show(s.review);
  } else if (s.status === "failed") {
    failed("The review could not be finished. Press Review to try again.");
  } else {
    progress(s);
    state.timer = setTimeout(() => poll(seat), POLL_MS);
  }
}

async function review() {
  const seat = Number($("review-seat").value);
  if (state.timer !== null) clearTimeout(state.timer);
  state.timer = null;
  state.seat = seat;
  state.chosen = 0;
  try {
    const s = await ask("POST", seat);
    if (s.status === "done" && s.review) show(s.review);
    else {
      progress(s);
      state.timer = setTimeout(() => poll(seat), POLL_MS);
    }
  } catch (e) {
    failed(`The review cannot be started: ${e.message}.`);
  }
}

/** Show the Review section: ``names`` the players by seat, ``goToMove(i)`` shows the
 * position before the record's move ``i`` (0-based over the game) in the replay. */
export function startReview({gameId, names, goToMove}) {
  state.gameId = gameId;
  state.names = names;
  state.goToMove = goToMove;
  const select = $("review-seat");
  select.innerHTML = names.map((n, i) => `<option value="${i}">${esc(n)}</option>`).join("");
  $("review-start").addEventListener("click", review);
  $("review-body").addEventListener("click", (e) => {  // the chosen decision's link to the replay
    const d = ((state.review && state.review.timeline) || [])[state.chosen];
    if (d && e.target.closest(".review-see")) state.goToMove(d.index, true);
  });
  $("review").classList.remove("hidden");
  if (window.location.hash === "#review") {  // opened by a Review link (the club's page)
    $("review").scrollIntoView({block: "start"});
    $("review-seat").focus();
  }
}
