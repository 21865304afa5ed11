// The game table: renders the server's `state` messages only, and sends moves in the
// engine's notation. See docs/web.md ("The protocol") for the view and the messages.

import {
  cardSvg, cardBack, cardChip, cardLabel, kindOf, sortHand, isWildKind, KIND_PLURALS,
  kindRankIndex, parseCard,
} from "./cards.js";
import { GameSocket } from "./socket.js";
import {
  groupText, groupRank, addGroupText, joinGroups, pickupText, pickupAloneText, goOutText,
  isRankTarget, attachKeys, attachArrowNav, attachDrag, KEYS,
} from "./input.js";
import { distinctNames, seatPlace, moveWords, adviceWords } from "./words.js";

const $ = (sel, root = document) => root.querySelector(sel);
const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
const fmt = (n) => (typeof n === "number" ? n.toLocaleString("en-US") : String(n ?? ""));

// --- state ------------------------------------------------------------------------------

const params = new URLSearchParams(location.search);
const hash = new URLSearchParams(location.hash.slice(1));
const app = {
  gameId: decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || ""),
  token: hash.get("t") || hash.get("s") || "",
  spectatorLink: !hash.get("t") && !!hash.get("s"),
  welcome: null,
  seat: null, // my seat, null for spectators
  view: null,
  presence: [],
  waiting: null,
  seq: 0,
  log: [], // [{key, seat, html, mine}]
  seen: new Set(),
  lastMove: {}, // seat -> html
  selection: new Set(), // hand card keys ("KS#0")
  tray: [], // staged groups: arrays of keys
  trayCheck: null, // {ok, message, refused}
  trayOpen: null, // the staged melds' details shown (null: as the screen's width says)
  glow: new Set(), // targets of my side's melds the selection can join
  busy: false,
  message: null, // {kind: "error"|"info"|"hint", html}
  hint: null,
  hintSeq: -1,
  focusKey: null,
  fourColour: localStorage.getItem("handfoot.fourColour") === "1",
  learn: params.get("learn") === "1" || localStorage.getItem("handfoot.learn") === "1",
  overlayHidden: false,
  overlayTab: "breakdown", // the tab of the between-round screen on a phone
  flash: new Map(), // element selector -> expiry
  firstState: true,
  rematch: null, // this person's own link to the rematch, once somebody started it
};

let sock = null;

// --- helpers ----------------------------------------------------------------------------

const isSpectator = () => app.seat === null || app.seat === undefined;
const players = () => app.view?.players ?? app.welcome?.game?.seats?.length ?? 4;
const sides = () => app.view?.sides ?? 2;
const sideOf = (seat) => seat % sides();
const mySide = () => (isSpectator() ? 0 : app.view?.side ?? sideOf(app.seat));
const bottomSeat = () => (isSpectator() ? 0 : app.seat);
const legal = () => (app.view && !isSpectator() ? app.view.legal || {} : {});
const partnered = () => players() > sides();

function seatName(seat, { you = true } = {}) {
  if (seat === null || seat === undefined) return "";
  if (you && seat === app.seat) return "You";
  const seats = app.welcome?.game?.seats || [];
  // two seats with one name ("Hard bot") are told apart by where they sit: "Hard bot (West)"
  const names = Array.from({ length: players() }, (_, i) => seats.find((x) => x.seat === i)?.name || `Seat ${i + 1}`);
  return distinctNames(names)[seat] || `Seat ${seat + 1}`;
}

function sideName(side) {
  const names = app.view?.side_names;
  const seatNames = (app.welcome?.game?.seats || []).map((x) => x.name);
  const shared = (s) => seatNames.filter((x) => x === seatNames[s]).length > 1;
  if (names && names[side] && !seatNames.some((_, s) => shared(s))) return names[side];
  // names some seats share ("Hard bot and Hard bot") read as where those seats sit:
  // "Robin and North" against "West and East", as the lobby names its bots
  const seats = [];
  for (let s = 0; s < players(); s++) {
    if (sideOf(s) === side) seats.push(shared(s) ? seatPlace(s, players()) : seatName(s, { you: false }));
  }
  return seats.join(" and ");
}

function seatRole(seat) {
  if (seat === app.seat) return "you";
  if (isSpectator()) return `side ${sideOf(seat) + 1}`;
  return sideOf(seat) === mySide() ? "partner" : "opponent";
}

function handEntries() {
  const hand = app.view?.hand || [];
  const counts = {};
  return sortHand(hand).map((code) => {
    counts[code] = (counts[code] || 0) + 1;
    return { key: `${code}#${counts[code] - 1}`, code };
  });
}

function codesOf(keys) {
  const map = new Map(handEntries().map((e) => [e.key, e.code]));
  return keys.map((k) => map.get(k)).filter(Boolean);
}

const selectedKeys = () => [...app.selection];
const selectedCodes = () => codesOf(selectedKeys()).sort((a, b) => kindRankIndex(kindOf(a)) - kindRankIndex(kindOf(b)));
const trayKeys = () => new Set(app.tray.flat());
const trayGroups = () => app.tray.map((g) => codesOf(g));

function myTurn() {
  const v = app.view;
  return v && !isSpectator() && v.to_act === app.seat && (v.phase === "draw" || v.phase === "play");
}

function openingMinimum(side) {
  const v = app.view;
  return v.opening_minimums?.[side] ?? v.opening_minimum ?? 0;
}

function hasKnees() {
  return !!app.view?.packets?.some((q) => q.knee || q.playing === "knee");
}

function packetText(p) {
  // "Hand" is the cards held now (as the terminal shows it); Knee and Foot the packets to come
  const parts = [`Hand ${p.hand}`];
  if (hasKnees()) parts.push(`Knee ${p.knee}`);
  parts.push(`Foot ${p.foot}`);
  return parts.join(" · ");
}

function playingText(p) {
  const where = p.playing || (p.in_foot ? "foot" : "hand");
  return where.charAt(0).toUpperCase() + where.slice(1);
}

// --- messages ---------------------------------------------------------------------------

function setMessage(kind, html, extra = "") {
  app.message = html ? { kind, html, extra } : null;
  renderMessage();
}

function describeEvent(e, { name = true } = {}) {
  // in a seat's own panel the name is already there: "discarded 7♠"
  const who = name ? esc(seatName(e.seat)) : "";
  const chips = (codes) => (codes || []).map((c) => cardChip(c, { fourColour: app.fourColour })).join("");
  const words = (t) => `<span class="words" title="${esc(t)}">${esc(t ? moveWords(t).replace(/^(took the pile|went out|melded)(:\s*|\s+)/, "") : "")}</span>`;
  switch (e.type) {
    case "draw": {
      let t = `${who} drew ${e.count ?? ""}`.trim();
      const drew = e.private?.drew || e.private?.cards;
      if (drew?.length) t += ` ${chips(drew)}`;
      if (e.red_threes?.length) t += ` and laid ${chips(e.red_threes)}`;
      return t;
    }
    case "pickup": {
      const n = e.count ?? e.taken?.length;
      let t = `${who} took the pile${n ? ` (${n} card${n === 1 ? "" : "s"})` : ""}`;
      if (e.top) t += ` with ${chips([e.top])} on top`;
      if (e.notation && e.notation !== "pickup") t += `: ${words(e.notation)}`;
      const taken = e.private?.taken || e.taken;
      if (taken?.length) t += `<span class="taken"> into the hand: ${chips(taken)}</span>`;
      return t;
    }
    case "meld":
      return `${who} melded ${e.cards?.length ? chips(e.cards) : e.notation ? words(e.notation) : ""}`;
    case "discard":
      return `${who} discarded ${e.card ? chips([e.card]) : ""}`;
    case "go_out":
      // with partners the move is the question; it is carried out on a yes
      if (!e.round_end && partnered()) return `${who} asks: may I go out?`;
      return `${who} went out${e.notation && e.notation !== "goout" ? `: ${words(e.notation)}` : ""}`;
    case "answer":
      return `${who} answered ${e.yes === false ? "no" : "yes"}${e.round_end ? " and the round is over" : ""}`;
    case "undo":
      return `${who} took back a meld`;
    case "knock":
      return `${who} knocked`;
    case "knee":
      return `${who} picked up the Knee`;
    default:
      return `${who} ${esc(e.notation ? moveWords(e.notation) : e.type || "")}`;
  }
}

function addEvents(events, { highlight }) {
  for (const e of events || []) {
    const key = `${e.round ?? ""}:${e.n ?? app.log.length}:${e.type}`;
    if (app.seen.has(key)) continue;
    app.seen.add(key);
    app.log.push({ key, seat: e.seat, event: e, mine: e.seat === app.seat, round: e.round });
    if (e.seat !== undefined && e.seat !== null) app.lastMove[e.seat] = e;
    if (e.round_end || e.type === "round_end") {
      const r = e.round_end || e;
      app.log.push({ key: `${key}:end`, seat: null, html: `Round ${esc(r.round ?? e.round ?? "")} over${r.reason ? `: ${esc(r.reason)}` : ""}`, mine: false });
    }
    if (highlight && e.seat !== app.seat) flashFor(e);
  }
  if (app.log.length > 120) app.log.splice(0, app.log.length - 120);
}

function flashFor(e) {
  const until = Date.now() + 2600;
  app.flash.set(`seat-${e.seat}`, until);
  if (e.type === "discard" || e.type === "pickup") app.flash.set("pile", until);
  if (e.type === "draw") app.flash.set("stock", until);
  if (e.type === "meld" || e.type === "pickup" || e.type === "go_out") {
    const side = sideOf(e.seat);
    const text = (e.notation || "").replace(/^\w+\s*/, "");
    for (const group of text.split("|")) {
      const words = group.replace(/:/g, " ").split(/\s+/).filter((w) => w && w !== "new" && w !== "discard");
      const rank = words.find((w) => isRankTarget(w));
      app.flash.set(`meld-${side}-${rank ? (rank === "T" ? "10" : rank) : "wild"}`, until);
    }
  }
  setTimeout(applyFlash, 2700);
}

function applyFlash() {
  const now = Date.now();
  document.querySelectorAll(".flash").forEach((el) => el.classList.remove("flash"));
  for (const [name, until] of app.flash) {
    if (until < now) {
      app.flash.delete(name);
      continue;
    }
    document.querySelectorAll(`[data-flash="${name}"]`).forEach((el) => el.classList.add("flash"));
  }
}

// --- rendering --------------------------------------------------------------------------

function render() {
  if (!app.view) return;
  document.body.classList.toggle("spectator", isSpectator());
  document.body.classList.toggle("four-colour", app.fourColour);
  renderTop();
  renderSeats();
  renderBoard();
  renderMe();
  renderLog();
  renderOverlay();
  renderAsk();
  applyFlash();
}

function renderTop() {
  const v = app.view;
  const g = app.welcome?.game || {};
  $("#round-info").innerHTML =
    `<span class="round">Round ${v.round} of ${v.rounds}</span>` +
    `<span class="profile">${esc(g.profile_title || g.profile || "")}</span>` +
    `<span class="minimum">Opening: ${fmt(openingMinimum(mySide()))} points</span>`;
  const totals = v.scores?.totals || [];
  const melded = v.scores?.melded || [];
  $("#scoreline").innerHTML = totals.map((t, i) =>
    `<span class="score${i === mySide() && !isSpectator() ? " mine" : ""}"><b>${esc(sideName(i))}</b> ` +
    `<span class="total" title="running total">${fmt(t)}</span>` +
    `<span class="melded" title="points melded this round">+${fmt(melded[i] ?? 0)} melded</span></span>`).join("");
}

function renderSeats() {
  const n = players();
  const me = bottomSeat();
  const others = [];
  for (let k = 1; k < n; k++) others.push((me + k) % n);
  const el = $("#seats");
  el.className = `seats n${others.length}${n === 4 && sides() === 2 ? " twobytwo" : ""}`;
  el.innerHTML = others.map((s, i) => seatPanel(s, i, others.length)).join("");
}

function seatPanel(seat, index, count) {
  const v = app.view;
  const p = v.packets?.[seat] || { hand: 0, foot: 0 };
  const turn = v.to_act === seat && v.phase !== "game_over";
  const online = app.presence[seat] !== false;
  let pos = "";
  if (count === 3 && sides() === 2) pos = ["left", "across", "right"][index];
  const role = seatRole(seat);
  const kind = app.welcome?.game?.seats?.find((x) => x.seat === seat);
  const bot = kind?.kind === "bot" ? ` <span class="tag">bot${kind.level ? ` · ${esc(kind.level)}` : ""}</span>` : "";
  const asking = v.phase === "answer" && v.turn === seat ? `<div class="seat-note">asks: may I go out?</div>` : "";
  return `<section class="seat-panel side-${sideOf(seat)}${turn ? " turn" : ""}${online ? "" : " offline"}${pos ? ` pos-${pos}` : ""}" ` +
    `data-flash="seat-${seat}" aria-label="${esc(seatName(seat))}, ${role}${turn ? ", to play" : ""}">` +
    `<div class="tb-seat-head">${turn ? '<span class="turn-mark" aria-hidden="true">▶</span>' : ""}` +
    `<b class="seat-name">${esc(seatName(seat))}</b> <span class="tag role">${role}</span>${bot}` +
    (playingText(p) !== "Hand" ? `<span class="tag packet">in ${playingText(p)}</span>` : "") +
    `<span class="presence ${online ? "on" : "off"}">${online ? "online" : "away"}</span></div>` +
    `<div class="seat-packets"><span class="mini-back" aria-hidden="true">${cardBack({ width: 16 })}</span>` +
    `${packetText(p)}<span class="playing"> · plays ${playingText(p)}</span></div>` +
    (turn ? `<div class="seat-turn">${v.phase === "answer" ? "answering" : "to play"}</div>` : "") +
    asking +
    `<div class="seat-last" title="last move">${app.lastMove[seat] && !asking ? describeEvent(app.lastMove[seat], { name: false }) : "&nbsp;"}</div>` +
    `</section>`;
}

function meldHtml(meld, side, mine) {
  const w = window.innerWidth < 700 ? 30 : 40;
  const target = meld.target;
  const rank = isRankTarget(target) ? (target === "T" ? "10" : target) : "wild";
  const label = isRankTarget(target) ? rank : "Wild";
  const key = glowKey(meld);
  const glow = mine && app.glow.has(key);
  const cardsIn = meld.cards || [];
  const wilds = meld.wilds ?? cardsIn.filter((c) => parseCard(c).wild).length;
  const name = meld.label || KIND_PLURALS[rank] || "wild cards";
  if (meld.book) {
    const top = cardsIn.find((c) => !parseCard(c).wild) || cardsIn[0];
    const text = { clean: "Clean", dirty: "Dirty", wild: "Wild" }[meld.book] || meld.book;
    // your side's books are buttons too: where the rules let books grow past their size
    // (naturals only, say), the selection is added to one as to any meld (it glows when so)
    const btag = mine && !isSpectator() ? "button" : "div";
    const baria = `${esc(name)}: ${text.toLowerCase()} book of ${meld.size}${wilds ? `, ${wilds} wild` : ""}${glow ? ", your selection can be added" : ""}`;
    const battrs = btag === "button"
      ? `type="button" data-drop="meld" data-target="${esc(target)}" data-glow="${esc(key)}" aria-label="${baria}"`
      : `role="img" aria-label="${baria}"`;
    return `<${btag} class="tb-meld book book-${meld.book}${glow ? " glow" : ""}" data-flash="meld-${side}-${rank}" ${battrs}>` +
      `<div class="book-stack">${cardSvg(top || "JK", { width: Math.round(w * 0.72), fourColour: app.fourColour })}</div>` +
      `<div class="book-label tb-meld-label"><span><b>${label}</b> <span class="book-size">${meld.size}</span></span><span class="book-kind">${text}</span>` +
      `${glow ? '<span class="glow-tag">add</span>' : ""}</div></${btag}>`;
  }
  const need = meld.book_size || 7;
  const tag = mine ? "button" : "div";
  const attrs = mine
    ? `type="button" data-drop="meld" data-target="${esc(target)}" data-glow="${esc(key)}" aria-label="${esc(name)}: ${meld.size} of ${need}${wilds ? `, ${wilds} wild` : ", clean so far"}${glow ? ", your selection can be added" : ""}"`
    : `role="img" aria-label="${esc(name)}: ${meld.size} of ${need}${wilds ? `, ${wilds} wild` : ", clean so far"}"`;
  const stride = Math.max(9, Math.round(w * 0.34));
  const fanW = w + stride * Math.max(0, cardsIn.length - 1);
  const fan = cardsIn.map((c, i) =>
    `<span class="tb-fan-card" style="left:${i * stride}px">${cardSvg(c, { width: w, fourColour: app.fourColour })}</span>`).join("");
  return `<${tag} class="tb-meld open${wilds ? " has-wild" : ""}${glow ? " glow" : ""}" data-flash="meld-${side}-${rank}" ${attrs}>` +
    `<div class="tb-meld-label"><b>${label}</b> <span class="progress">${meld.size}/${need}</span>` +
    `${wilds ? `<span class="wildcount">${wilds}W</span>` : ""}${glow ? '<span class="glow-tag">add</span>' : ""}</div>` +
    `<div class="meld-fan" style="width:${fanW}px;height:${Math.round(w * 1.4)}px">${fan}</div></${tag}>`;
}

/** What glows: an unfinished meld by its target ("K"), a book as "book:K" (a side may have
 * both: a book of kings and, beside it, a second meld of kings). */
function glowKey(meld) {
  return meld.book ? `book:${meld.target}` : String(meld.target);
}

function sortMelds(melds) {
  const order = (m) => (isRankTarget(m.target) ? kindRankIndex(m.target === "T" ? "10" : m.target) : 50);
  return [...melds].sort((a, b) => (b.book ? 1 : 0) - (a.book ? 1 : 0) || order(a) - order(b));
}

function sideArea(side, mine) {
  const v = app.view;
  const melds = sortMelds(v.melds?.[side] || []);
  const reds = v.red_threes?.[side] || [];
  const opened = v.opened?.[side];
  const books = melds.filter((m) => m.book);
  const open = melds.filter((m) => !m.book);
  const bookCount = { clean: 0, dirty: 0, wild: 0 };
  books.forEach((b) => { bookCount[b.book] = (bookCount[b.book] || 0) + 1; });
  const bookSummary = Object.entries(bookCount).filter(([, n]) => n).map(([k, n]) => `${n} ${k}`).join(", ");
  const drop = mine && !isSpectator() ? ' data-drop="melds"' : "";
  let body = "";
  if (!melds.length) {
    body = `<div class="no-melds">${mine && !isSpectator() ? (legal().meld ? "No melds yet — select cards and press Meld, or drag them here" : "No melds yet") : "No melds yet"}</div>`;
  } else {
    body = `<div class="books">${books.map((m) => meldHtml(m, side, mine)).join("")}</div>` +
      `<div class="opens">${open.map((m) => meldHtml(m, side, mine)).join("")}</div>`;
  }
  return `<section class="side-area side-${side}${mine ? " mine" : ""}" aria-label="${esc(sideName(side))}: melds">` +
    `<header class="tb-side-head"><b>${esc(sideName(side))}</b>` +
    `<span class="opened ${opened ? "yes" : "no"}">${opened ? "✓ opened" : `not opened · needs ${fmt(openingMinimum(side))}`}</span>` +
    `<span class="melded">${fmt(v.scores?.melded?.[side] ?? 0)} melded</span>` +
    (bookSummary ? `<span class="bookcount">books: ${bookSummary}</span>` : "") +
    (reds.length ? `<span class="tb-reds" aria-label="red threes: ${reds.length}">red 3s ${reds.map((c) => cardChip(c, { fourColour: app.fourColour })).join("")}</span>` : "") +
    `</header><div class="tb-melds"${drop}>${body}</div></section>`;
}

function renderBoard() {
  const v = app.view;
  const my = mySide();
  const opp = [];
  for (let s = 0; s < sides(); s++) if (s !== my) opp.push(s);
  $("#opp-sides").className = `opp-sides n${opp.length}`;
  $("#opp-sides").innerHTML = opp.map((s) => sideArea(s, false)).join("");
  $("#my-side").innerHTML = sideArea(my, true);
  // centre: stock and pile
  const l = legal();
  const w = window.innerWidth < 700 ? 46 : 60;
  const d = v.discard || {};
  const canDraw = !!l.draw;
  const canPick = !!l.pickup;
  const stock = `<button type="button" class="pile-btn tb-stock${canDraw ? " can" : ""}" id="stock-btn" data-flash="stock" ` +
    `${canDraw ? "" : 'aria-disabled="true"'} aria-label="stock, ${v.stock} cards${canDraw ? ", tap to draw" : ""}">` +
    `${cardBack({ width: w, label: "stock" })}<span class="pile-cap"><b>Stock</b> ${fmt(v.stock)}</span>` +
    `${canDraw ? '<span class="pile-hint">tap to draw</span>' : ""}</button>`;
  const top = d.top ? cardSvg(d.top, { width: w, fourColour: app.fourColour }) :
    `<svg class="card empty" width="${w}" height="${Math.round(w * 1.4)}" viewBox="0 0 100 140" aria-hidden="true"><rect x="2" y="2" width="96" height="136" rx="8" fill="none" stroke="#9aa" stroke-dasharray="6 5" stroke-width="2"/></svg>`;
  const pile = `<button type="button" class="pile-btn tb-pile${canPick ? " can" : ""}" id="pile-btn" data-drop="pile" data-flash="pile" ` +
    `aria-label="discard pile, ${d.size ?? 0} cards${d.top ? `, ${cardLabel(d.top)} on top` : ", empty"}${canPick ? ", tap to pick up" : ""}">` +
    `${top}<span class="pile-cap"><b>Pile</b> ${fmt(d.size ?? 0)}</span>` +
    (d.top && d.pickup_size ? `<span class="pile-sub">pickup takes ${d.pickup_size}</span>` : "") +
    `${canPick ? '<span class="pile-hint">tap to pick up</span>' : ""}</button>`;
  $("#center").innerHTML = stock + pile;
}

// A round that stalls (nobody draws from the stock or lays a card) ends after stall.limit
// turns in a row; warn once a whole turn round the table has passed that way.
function stallText(v) {
  const st = v.stall;
  if (!st || v.phase === "game_over" || app.waiting || st.turns < v.players) return "";
  const left = Math.max(st.limit - st.turns, 0);
  return `The round ends in ${left} turn${left === 1 ? "" : "s"} unless someone draws or melds`;
}

function statusText() {
  const v = app.view;
  if (v.phase === "game_over") return "Game over";
  if (app.waiting) return `Round ${app.waiting.round ?? v.round} is over`;
  const l = legal();
  if (v.phase === "answer") {
    if (l.answer && v.asking !== null && v.asking !== undefined) return `${seatName(v.asking)} asks: may I go out?`;
    const asker = v.turn;
    const answerer = v.to_act;
    if (asker === app.seat) return `Waiting for ${seatName(answerer)}'s answer…`;
    return `${seatName(asker)} asks ${seatName(answerer, { you: false })}: may I go out?`;
  }
  if (myTurn()) {
    if (v.phase === "draw") return "Your turn: draw or pick up the pile";
    return `Your turn: meld, then discard${l.go_out ? " (or go out)" : ""}`;
  }
  if (isSpectator()) return `${seatName(v.to_act)} to play`;
  return `${seatName(v.to_act)} is playing…`;
}

function renderMe() {
  const v = app.view;
  const me = bottomSeat();
  const p = v.packets?.[me] || { hand: 0, foot: 0 };
  const turn = v.to_act === me && v.phase !== "game_over";
  const online = app.presence[me] !== false;
  $("#me-head").innerHTML =
    `<span class="me-name${turn ? " turn" : ""}" data-flash="seat-${me}">${turn ? '<span class="turn-mark" aria-hidden="true">▶</span>' : ""}<b>${esc(isSpectator() ? seatName(me) : "You")}</b>` +
    `${isSpectator() ? ` <span class="presence ${online ? "on" : "off"}">${online ? "online" : "away"}</span>` : ""}</span>` +
    `<span class="me-packets">${packetText(p)} · <b>playing from ${playingText(p)}</b></span>`;
  $("#status").textContent = statusText();
  const stall = stallText(app.view);
  $("#stall").textContent = stall;
  $("#stall").hidden = !stall;
  $("#status").classList.toggle("your-turn", myTurn() || !!legal().answer);
  renderTray();
  renderMessage();
  renderHand();
  renderActions();
}

// The staged melds: one line on a phone (the board keeps its room for your side's melds),
// opened with its toggle for the whole reason and Return all; always open on a wide screen.
function trayOpen() {
  return app.trayOpen ?? window.innerWidth >= 600;
}

function renderTray() {
  const el = $("#tray");
  if (isSpectator() || !app.tray.length) {
    el.hidden = true;
    el.innerHTML = "";
    return;
  }
  el.hidden = false;
  const groups = trayGroups();
  const check = app.trayCheck;
  const open = trayOpen();
  const draw = app.view.phase === "draw";
  const opened = app.view.opened?.[mySide()];
  el.classList.toggle("open", open);
  const state = draw ? "" : check ? (check.ok ? "ok" : "bad") : "";
  const mark = draw ? "" : check ? (check.ok ? "✓ ready" : "✗ not yet") : "…";
  const cardW = window.innerWidth < 600 ? 24 : 30;
  const reason = draw ? `These go down with the pile: ${esc(check?.message || "")}`
    : !check ? "checking…"
    : check.ok ? "✓ ready to lay down"
    : `✗ ${check.refused ? "<b>Not allowed:</b> " : ""}${esc(check.message)}`;
  el.innerHTML = `<div class="tray-line">` +
    `<button type="button" class="tray-sum" id="btn-tray-toggle" aria-expanded="${open}" aria-controls="tray-foot" ` +
    `title="Staged melds are laid down together${opened ? "" : `; the opening needs ${fmt(openingMinimum(mySide()))}`}">` +
    `<span><b>Staged</b> <span class="tray-caret" aria-hidden="true">${open ? "▾" : "▸"}</span></span><span class="tray-mark ${state}">${mark}</span></button>` +
    `<div class="tray-groups">${groups.map((g, i) =>
      `<div class="tray-group"><span class="tray-cards">${g.map((c) => cardSvg(c, { width: cardW, fourColour: app.fourColour })).join("")}</span>` +
      `<button type="button" class="tray-x" data-untray="${i}" aria-label="return ${esc(groupText(g))} to your hand">✕</button></div>`).join("")}</div>` +
    (draw
      ? `<button type="button" class="btn btn-primary" id="btn-tray-pickup" ${app.busy || !legal().pickup ? "disabled" : ""}>Pick up <kbd>P</kbd></button>`
      : `<button type="button" class="btn${check?.ok ? " btn-primary" : ""}" id="btn-laydown" ${app.busy ? "disabled" : ""}>Lay down <kbd>M</kbd></button>`) +
    `</div>` +
    `<div class="tray-foot" id="tray-foot"${open ? "" : " hidden"}>` +
    `<span class="tray-check ${state}"${check?.refused ? ' role="alert"' : ""}>${reason}</span>` +

    `<button type="button" class="btn btn-quiet" id="btn-untray-all">Return all</button></div>`;
}

function renderMessage() {
  const el = $("#message");
  if (!app.message) {
    el.hidden = true;
    el.innerHTML = "";
    return;
  }
  el.hidden = false;
  el.className = `message ${app.message.kind}`;
  const icon = { error: "!", info: "i", hint: "?" }[app.message.kind] || "";
  // on a phone a hint is one line (tap it for the rest): the board keeps its room
  el.innerHTML = `<span class="msg-icon" aria-hidden="true">${icon}</span><span class="msg-text">${app.message.html}</span>` +
    `${app.message.extra || ""}<button type="button" class="msg-x" aria-label="dismiss message">✕</button>`;
}

function hintedKeys() {
  if (!app.hint?.move) return new Set();
  const words = app.hint.move.replace(/[:|]/g, " ").split(/\s+/).slice(1).filter((w) => w && w !== "new" && w !== "discard");
  const want = {};
  for (const w of words) {
    const k = w.toUpperCase() === "T" ? "10" : w.toUpperCase() === "3" ? "B3" : w.toUpperCase();
    want[k] = (want[k] || 0) + 1;
  }
  const top = app.view?.discard?.top;
  if (app.hint.move.startsWith("pickup") && top && want[kindOf(top)] > 0) {
    want[kindOf(top)] -= 1; // the top card joins the first group of its kind: not from the hand
  }
  const out = new Set();
  for (const e of handEntries()) {
    const k = kindOf(e.code);
    if (want[k] > 0) {
      out.add(e.key);
      want[k] -= 1;
    }
  }
  return out;
}

// Redrawing the same markup would replace the buttons under the pointer, and a press that
// begins on the old button and ends on the new one is no click at all (the browser tests
// lost a Discard that way when the toolbar was redrawn mid-click): same markup, same DOM.
const shownHtml = new WeakMap();
function setHtml(el, html) {
  if (shownHtml.get(el) === html && el.isConnected) return;
  shownHtml.set(el, html);
  el.innerHTML = html;
}

function renderHand() {
  const el = $("#hand");
  const v = app.view;
  if (isSpectator()) {
    const p = v.packets?.[0] || { hand: 0 };
    const count = p.in_foot || p.playing === "foot" ? p.foot : p.hand;
    const w = handCardWidth();
    shownHtml.delete(el);
    el.innerHTML = `<div class="hand-backs" aria-label="${esc(seatName(0))} holds ${count} cards">` +
      Array.from({ length: Math.min(count, 30) }, (_, i) => `<span class="back-card" style="left:${i * 14}px">${cardBack({ width: w })}</span>`).join("") +
      `</div>`;
    el.querySelector(".hand-backs").style.width = `${w + 14 * Math.max(0, count - 1)}px`;
    el.querySelector(".hand-backs").style.height = `${Math.round(w * 1.4)}px`;
    return;
  }
  const hidden = trayKeys();
  const entries = handEntries().filter((e) => !hidden.has(e.key));
  const hinted = hintedKeys();
  const focusKey = document.activeElement?.dataset?.key || app.focusKey;
  // layout: rows of overlapping cards, a small gap between kinds, every card at least 44 px
  // visible (a touch target); as few rows as fit, the cards shared evenly between them
  const w = handCardWidth();
  const h = Math.round(w * 1.4);
  const width = Math.max(200, el.clientWidth - 4);
  const minStride = 44;
  let gap = 5;
  const chunkWidth = (chunk, s) => {
    let x = 0;
    for (let i = 1; i < chunk.length; i++) x += s + (kindOf(chunk[i].code) !== kindOf(chunk[i - 1].code) ? gap : 0);
    return x + w;
  };
  let chunks = [entries];
  for (let r = 1; r <= 6; r++) {
    const per = Math.ceil(entries.length / r);
    chunks = [];
    for (let i = 0; i < entries.length; i += per) chunks.push(entries.slice(i, i + per));
    const fits = () => chunks.every((c) => chunkWidth(c, minStride) <= width);
    gap = 5;
    if (fits()) break;
    gap = 0;
    if (fits()) break;
  }
  if (gap === 0) gap = 2;
  let stride = Math.round(w * 0.74);
  while (stride > minStride && chunks.some((c) => chunkWidth(c, stride) > width)) stride -= 1;
  while (gap > 0 && chunks.some((c) => chunkWidth(c, stride) > width)) gap -= 1;
  const rowStep = Math.round(h * 0.58);
  const placed = [];
  chunks.forEach((chunk, row) => {
    let x = 0;
    chunk.forEach((e, i) => {
      if (i) x += stride + (kindOf(e.code) !== kindOf(chunk[i - 1].code) ? gap : 0);
      placed.push({ ...e, x, row });
    });
  });
  const rows = chunks.length;
  el.style.height = `${rowStep * (rows - 1) + h + 16}px`;
  setHtml(el, !entries.length ? `<div class="hand-empty">${app.tray.length ? "All your cards are staged" : "No cards in hand"}</div>` :
    `<div class="hand-inner" style="height:${el.style.height}">` + placed.map((e) => {
    const sel = app.selection.has(e.key);
    const hint = hinted.has(e.key);
    return `<button type="button" class="hand-card${sel ? " selected" : ""}${hint ? " hinted" : ""}" data-key="${e.key}" ` +
      `style="left:${e.x}px;top:${e.row * rowStep + 14}px;width:${w}px" ` +
      `aria-pressed="${sel}" aria-label="${esc(cardLabel(e.code))}${sel ? ", selected" : ""}${hint ? ", hinted" : ""}">` +
      `${cardSvg(e.code, { width: w, fourColour: app.fourColour, selected: sel, label: "" })}` +
      (sel ? '<span class="sel-mark" aria-hidden="true">✓</span>' : "") +
      `</button>`;
  }).join("") + `</div>`);
  if (focusKey) {
    const f = el.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
    if (f && el.contains(document.activeElement) === false && app.focusKey) f.focus({ preventScroll: true });
    else if (f && document.activeElement?.dataset?.key) f.focus({ preventScroll: true });
  }
}

function handCardWidth() {
  return window.innerWidth < 700 ? 56 : window.innerHeight < 800 ? 74 : 84;
}

const ACTIONS = [
  { id: "draw", label: "Draw", key: "D" },
  { id: "pickup", label: "Pick up", key: "P" },
  { id: "meld", label: "Meld", key: "M" },
  { id: "add", label: "Add", key: "A" },
  { id: "discard", label: "Discard", key: "X" },
  { id: "goout", label: "Go out", key: "G" },
  { id: "undo", label: "Undo", key: "U" },
  { id: "hint", label: "Hint", key: "H" },
  { id: "knock", label: "Knock", key: "" },
  { id: "knee", label: "Pick up Knee", key: "" },
];

function actionEnabled(id) {
  const l = legal();
  const v = app.view;
  if (isSpectator() || app.busy || !v || v.phase === "game_over" || app.waiting) return false;
  if (sock && sock.status !== "online") return false; // nothing can be sent: no false hopes
  const sel = app.selection.size;
  switch (id) {
    case "draw": return !!l.draw;
    case "pickup": return !!l.pickup;
    case "meld": return (!!l.meld || (!!l.pickup && v.phase === "draw")) && (sel > 0 || app.tray.length > 0);
    case "add": return !!l.meld && sel > 0 && !app.tray.length && (app.view.melds?.[mySide()] || []).length > 0;
    case "discard": {
      if (sel !== 1 || !l.discard) return false;
      if (Array.isArray(l.discard)) {
        const k = kindOf(selectedCodes()[0]);
        return l.discard.some((d) => String(d).toUpperCase() === k || (d === "T" && k === "10") || (d === "3" && k === "B3"));
      }
      return !!l.discard;
    }
    case "goout": return !!l.go_out;
    case "undo": return !!l.undo;
    case "hint": return myTurn() || !!l.answer;
    case "knock": return !!l.knock;
    case "knee": return !!l.knee;
    default: return false;
  }
}

function renderActions() {
  const el = $("#actions");
  if (isSpectator()) {
    shownHtml.delete(el);
    el.innerHTML = `<p class="spectating">You are watching: you see the table, not the players' cards.</p>`;
    return;
  }
  const l = legal();
  const sel = app.selection.size;
  // the buttons are made once and then only switched on and off: a button redrawn between
  // press and release loses the click
  const shown = ACTIONS.filter((a) => !(a.id === "knock" && !l.knock) && !(a.id === "knee" && !l.knee));
  setHtml(el, shown.map((a) => `<button type="button" class="btn act-${a.id}" data-action="${a.id}">` +
    `${a.label}${a.key ? ` <kbd>${a.key}</kbd>` : ""}</button>`).join("") +
    `<span class="sel-info" aria-live="polite"></span>`);
  for (const a of shown) {
    const b = el.querySelector(`[data-action="${a.id}"]`);
    const on = actionEnabled(a.id);
    b.disabled = !on;
    b.classList.toggle("btn-primary", on && ((a.id === "draw") || (a.id === "discard" && sel === 1) || (a.id === "meld" && sel >= 3)));
  }
  setHtml(el.querySelector(".sel-info"), sel ? `${sel} selected: ${selectedCodes().map((c) => cardChip(c, { fourColour: app.fourColour })).join(" ")} <button type="button" class="linkish" data-action="clear">clear <kbd>Esc</kbd></button>` : "");
}

function renderLog() {
  const items = app.log.slice(-60);
  const html = (it) => it.html ?? describeEvent(it.event);
  $("#log").innerHTML = items.map((it) => `<li class="${it.mine ? "mine" : ""}${it.seat === null ? " sys" : ""}">${html(it)}</li>`).join("");
  const lg = $("#log");
  lg.scrollTop = lg.scrollHeight;
  // ticker: other players' latest moves, for small screens
  const others = items.filter((it) => !it.mine && it.seat !== null).slice(-2);
  $("#ticker").innerHTML = others.map((it) => `<span>${html(it)}</span>`).join("");
}

function renderAsk() {
  const dlg = $("#dlg-ask");
  const v = app.view;
  const l = legal();
  const show = !isSpectator() && l.answer && v.phase === "answer";
  if (show && !dlg.open) {
    $("#ask-text").textContent = `${seatName(v.asking ?? v.turn)} asks: may I go out?`;
    $("#ask-hint").hidden = true;
    $("#ask-hint").innerHTML = "";
    dlg.showModal();
    $("#ask-yes").focus();
  } else if (!show && dlg.open) {
    dlg.close();
  }
}

// --- between rounds and game over -------------------------------------------------------

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
  const cell = (s, key) => {
    const line = (s.lines || []).find((l) => l.key === key);
    if (!line) return `<td class="num">–</td>`;
    const count = line.count !== undefined && line.count !== null && line.count !== "" ? `<span class="count">${fmt(line.count)} ×</span> ` : "";
    return `<td class="num${line.points < 0 ? " neg" : ""}">${count}${fmt(line.points)}</td>`;
  };
  const totals = result.totals || [];
  const how = result.went_out !== null && result.went_out !== undefined ? `${seatName(result.went_out)} went out` : result.reason || "";
  return `<table class="breakdown"><caption>Round ${result.round}: ${esc(how)}</caption>` +
    `<thead><tr><th scope="col">Score</th>${scores.map((s) => `<th scope="col"${s.side === mySide() && !isSpectator() ? ' class="mine"' : ""}>${esc(sideName(s.side))}</th>`).join("")}</tr></thead>` +
    `<tbody>${keys.map((k) => `<tr><th scope="row">${esc(labels[k])}</th>${scores.map((s) => cell(s, k)).join("")}</tr>`).join("")}</tbody>` +
    `<tfoot><tr class="round-total"><th scope="row">This round</th>${scores.map((s) => `<td class="num">${fmt(s.total)}</td>`).join("")}</tr>` +
    `<tr class="game-total"><th scope="row">Game total</th>${scores.map((s) => `<td class="num">${fmt(totals[s.side])}</td>`).join("")}</tr></tfoot></table>`;
}

const SERIES = [
  { colour: "#1f6fd1", marker: "circle", dash: "" },
  { colour: "#c2410c", marker: "square", dash: "6 4" },
  { colour: "#15803d", marker: "triangle", dash: "2 3" },
  { colour: "#7e22ce", marker: "diamond", dash: "10 3 2 3" },
];

function markerSvg(kind, x, y, colour) {
  switch (kind) {
    case "square": return `<rect x="${x - 4}" y="${y - 4}" width="8" height="8" fill="${colour}"/>`;
    case "triangle": return `<path d="M${x} ${y - 5} L${x + 5} ${y + 4} L${x - 5} ${y + 4} Z" fill="${colour}"/>`;
    case "diamond": return `<path d="M${x} ${y - 5} L${x + 5} ${y} L${x} ${y + 5} L${x - 5} ${y} Z" fill="${colour}"/>`;
    default: return `<circle cx="${x}" cy="${y}" r="4.5" fill="${colour}"/>`;
  }
}

export function scoreChart(results, names, { width = 360, height = 170 } = {}) {
  const n = names.length;
  const series = names.map((_, s) => [0, ...results.map((r) => r.totals?.[s] ?? 0)]);
  const all = series.flat();
  let lo = Math.min(0, ...all);
  let hi = Math.max(100, ...all);
  const pad = (hi - lo) * 0.08;
  lo -= pad;
  hi += pad;
  const L = 52;
  const R = 12;
  const T = 12;
  const B = 26;
  const pts = series[0].length;
  const xAt = (i) => L + (pts > 1 ? (i * (width - L - R)) / (pts - 1) : 0);
  const yAt = (v) => T + ((hi - v) * (height - T - B)) / (hi - lo);
  let svg = `<svg class="chart" viewBox="0 0 ${width} ${height}" width="100%" role="img" aria-label="cumulative scores by round: ${names.map((nm, s) => `${esc(nm)} ${fmt(series[s][pts - 1])}`).join(", ")}">`;
  // grid
  const step = niceStep((hi - lo) / 4);
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) {
    const y = yAt(v);
    svg += `<line x1="${L}" x2="${width - R}" y1="${y}" y2="${y}" stroke="${v === 0 ? "#888" : "#ddd"}" stroke-width="1"/>` +
      `<text x="${L - 6}" y="${y + 4}" font-size="11" text-anchor="end" fill="#555">${fmt(Math.round(v))}</text>`;
  }
  for (let i = 0; i < pts; i++) {
    svg += `<text x="${xAt(i)}" y="${height - 8}" font-size="11" text-anchor="middle" fill="#555">${i === 0 ? "start" : `R${i}`}</text>`;
  }
  series.forEach((vals, s) => {
    const st = SERIES[s % SERIES.length];
    const d = vals.map((v, i) => `${i ? "L" : "M"}${xAt(i).toFixed(1)} ${yAt(v).toFixed(1)}`).join(" ");
    svg += `<path d="${d}" fill="none" stroke="${st.colour}" stroke-width="2.5" stroke-dasharray="${st.dash}"/>`;
    vals.forEach((v, i) => { svg += markerSvg(st.marker, xAt(i), yAt(v), st.colour); });
  });
  svg += `</svg>`;
  const legend = `<ul class="chart-legend">${names.map((nm, s) => {
    const st = SERIES[s % SERIES.length];
    return `<li><svg width="26" height="12" aria-hidden="true"><line x1="1" x2="25" y1="6" y2="6" stroke="${st.colour}" stroke-width="2.5" stroke-dasharray="${st.dash}"/>${markerSvg(st.marker, 13, 6, st.colour)}</svg>${esc(nm)}: <b>${fmt(series[s][pts - 1])}</b></li>`;
  }).join("")}</ul>`;
  void n;
  return svg + legend;
}

// The shared chart (static/chart.js, also used by other pages) replaces the built-in one when
// it loads; the built-in one stays if it is missing or fails.
let sharedChart = null;
function useSharedChart(results, names) {
  const draw = (lineChart) => {
    const box = $("#overlay .tb-chart-box");
    if (!box) return;
    try {
      const series = names.map((label, s) => ({ label, values: [0, ...results.map((r) => r.totals?.[s] ?? 0)] }));
      const svg = lineChart(series, { width: 360, height: 200 });
      if (svg instanceof Element) box.replaceChildren(svg);
    } catch {
      /* keep the built-in chart */
    }
  };
  if (sharedChart) return draw(sharedChart);
  if (sharedChart === false) return;
  import("/static/chart.js").then((m) => {
    sharedChart = typeof m.lineChart === "function" ? m.lineChart : false;
    if (sharedChart) draw(sharedChart);
  }).catch(() => { sharedChart = false; });
}

function niceStep(x) {
  const p = 10 ** Math.floor(Math.log10(Math.max(1, x)));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= x) return m * p;
  return 10 * p;
}

function statsTable(stats) {
  if (!Array.isArray(stats) || !stats.length) return "";
  const cols = [];
  for (const row of stats) for (const k of Object.keys(row)) if (!["seat", "name", "side"].includes(k) && !cols.includes(k)) cols.push(k);
  const names = { pickups: "pile pickups", books: "books made", melded: "points melded" };
  const label = (k) => names[k] || k.replace(/_/g, " ");
  return `<table class="stats"><caption>Player statistics</caption><thead><tr><th scope="col">Player</th>${cols.map((c) => `<th scope="col">${esc(label(c))}</th>`).join("")}</tr></thead>` +
    `<tbody>${stats.map((r) => `<tr><th scope="row">${esc(seatName(r.seat))}</th>${cols.map((c) => `<td class="num">${typeof r[c] === "boolean" ? (r[c] ? "yes" : "no") : fmt(r[c])}</td>`).join("")}</tr>`).join("")}</tbody></table>`;
}

function renderOverlay() {
  const v = app.view;
  const el = $("#overlay");
  const over = v.phase === "game_over";
  const results = v.results || [];
  const show = (over || !!app.waiting) && results.length;
  $("#btn-show-scores").hidden = !(show && app.overlayHidden);
  if (!show || app.overlayHidden) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  const last = results[results.length - 1];
  const names = Array.from({ length: sides() }, (_, s) => sideName(s));
  let head = "";
  let foot = "";
  if (over) {
    const totals = last.totals || [];
    const best = Math.max(...totals);
    const winners = Array.isArray(v.winners) && v.winners.length ? v.winners :
      totals.map((t, i) => (t === best ? i : -1)).filter((i) => i >= 0);
    const mine = winners.includes(mySide()) && !isSpectator();
    const seatsOf = (side) => Array.from({ length: players() }, (_, s) => s).filter((s) => sideOf(s) === side);
    let title;
    if (winners.length > 1) title = `A tie: ${winners.map((s) => esc(sideName(s))).join(" and ")}`;
    else if (mine && seatsOf(winners[0]).length === 1) title = "You win!";
    else if (mine) title = `You and ${seatsOf(winners[0]).filter((s) => s !== app.seat).map((s) => esc(seatName(s))).join(" and ")} win!`;
    else title = `${esc(sideName(winners[0]))} ${seatsOf(winners[0]).length > 1 ? "win" : "wins"}`;
    head = `<div class="banner ${mine ? "won" : ""}"><span class="trophy" aria-hidden="true">★</span><h2>${title}</h2>` +
      `<p>${totals.map((t, i) => `${esc(sideName(i))} ${fmt(t)}`).join(" · ")}</p></div>`;
    const id = encodeURIComponent(app.gameId);
    foot = `<div class="endlinks"><a class="btn" href="/replay/${id}">Replay</a>` +
      `<a class="btn" href="/api/games/${id}/record" download="handfoot-${id}.json">Download record</a>` +
      (app.rematch ? `<a class="btn btn-primary" id="btn-join-rematch" href="${esc(rematchLink())}">${isSpectator() ? "Watch" : "Join"} the rematch</a>` :
        isSpectator() ? "" : `<button type="button" class="btn btn-primary" id="btn-rematch">Rematch</button>`) +
      `<a class="btn" href="/">New game</a></div>`;
  } else {
    const waitingFor = app.waiting?.continue || [];
    const mustPress = !isSpectator() && waitingFor.includes(app.seat);
    const others = waitingFor.filter((s) => s !== app.seat).map((s) => esc(seatName(s)));
    const totals = last.totals || [];
    head = `<h2>Round ${app.waiting?.round ?? last.round} of ${v.rounds} is over</h2>` +
      `<p class="ov-totals">${totals.map((t, i) => `<span${i === mySide() && !isSpectator() ? ' class="mine"' : ""}>${esc(sideName(i))} <b>${fmt(t)}</b></span>`).join("")}</p>`;
    foot = `<div class="continue-row">` +
      (mustPress ? `<button type="button" class="btn btn-primary" id="btn-continue">Continue <kbd>C</kbd></button>` :
        isSpectator() ? "" : `<span class="ready">✓ you are ready</span>`) +
      (others.length ? `<span class="wait-for">waiting for ${others.join(", ")}</span>` : "") + `</div>`;
  }
  el.innerHTML = `<div class="overlay-card" role="dialog" aria-modal="false" aria-labelledby="overlay-title">` +
    `<button type="button" class="overlay-x" id="btn-hide-overlay">Look at the table</button>` +
    `<div id="overlay-title">${head}</div>` +
    overlayTabs(over && Array.isArray(v.stats) && v.stats.length) +
    `<div class="overlay-body" data-tab="${app.overlayTab}"><div class="col col-breakdown" id="ov-breakdown" role="tabpanel">${breakdownTable(last)}</div>` +
    `<div class="col col-chart" id="ov-chart" role="tabpanel"><h3>Scores by round</h3><div class="tb-chart-box">${scoreChart(results, names)}</div></div>` +
    (over ? `<div class="col col-players" id="ov-players" role="tabpanel">${statsTable(v.stats)}</div>` : "") + `</div>` + foot + `</div>`;
  useSharedChart(results, names);
  const focusTarget = $("#btn-continue") || $("#btn-join-rematch") || $("#btn-rematch");
  if (focusTarget && !el.contains(document.activeElement)) focusTarget.focus({ preventScroll: true });
}

// On a phone the breakdown, the chart and the players' statistics are tabs under the
// totals (each is a screen's worth); a wide screen shows them side by side, no tabs.
function overlayTabs(players) {
  const tabs = [["breakdown", "Breakdown"], ["chart", "Chart"]];
  if (players) tabs.push(["players", "Players"]);
  if (!tabs.some(([id]) => id === app.overlayTab)) app.overlayTab = "breakdown";
  return `<div class="ov-tabs" role="tablist" aria-label="round results">${tabs.map(([id, label]) =>
    `<button type="button" role="tab" class="ov-tab" data-tab="${id}" aria-controls="ov-${id}" ` +
    `aria-selected="${id === app.overlayTab}">${label}</button>`).join("")}</div>`;
}

function showOverlayTab(id) {
  app.overlayTab = id;
  const body = $("#overlay .overlay-body");
  if (body) body.dataset.tab = id;
  document.querySelectorAll("#overlay .ov-tab").forEach((b) => b.setAttribute("aria-selected", String(b.dataset.tab === id)));
}

// --- actions ----------------------------------------------------------------------------

async function sendMove(move, { clear = true } = {}) {
  if (app.busy || !sock) return null;
  app.busy = true;
  setMessage(null);
  renderActions();
  const reply = await sock.request({ type: "move", move });
  app.busy = false;
  if (reply.type === "ack") {
    if (clear) {
      app.selection.clear();
      app.tray = [];
      app.trayCheck = null;
      app.glow.clear();
    }
    app.hint = null;
  } else if (reply.type === "error") {
    const reason = reply.message || "not allowed";
    if (app.tray.length && move === `meld ${joinGroups(trayGroups().map(groupText))}`) {
      // the staged melds were refused: the reason shows once, beside them
      app.trayCheck = { ok: false, message: reason, refused: true };
      app.trayOpen = true;
    } else {
      setMessage("error", `<b>Not allowed:</b> ${esc(reason)} <span class="tried">(${esc(adviceWords(move))})</span>`);
    }
  }
  if (app.view) renderMe();
  return reply;
}

function needSelection(text) {
  setMessage("info", esc(text));
}

function doDraw() {
  if (!actionEnabled("draw")) return;
  sendMove("draw", { clear: false });
}

async function doPickup() {
  if (!actionEnabled("pickup")) return;
  const top = app.view.discard?.top;
  const sel = selectedCodes();
  if (!sel.length && !app.tray.length && top) {
    // nothing selected: the top card alone onto a meld of its rank, or a plain pickup
    const candidates = [pickupAloneText(top), "pickup"].filter((m, i, a) => a.indexOf(m) === i);
    let first = null;
    for (const m of candidates) {
      const r = await sock.request({ type: "check", move: m });
      if (r.ok) return sendMove(m);
      first = first || r;
    }
    const k = kindOf(top);
    setMessage("error", `<b>Can't pick up yet:</b> ${esc(first?.message || "")} — select the cards from your hand that go with the ${esc(KIND_PLURALS[k] ? KIND_PLURALS[k].replace(/s$/, "") : k)} on top, then press Pick up.`);
    return null;
  }
  return sendMove(pickupText(sel, trayGroups(), top));
}

function stageSelection() {
  const keys = selectedKeys();
  const rank = groupRank(codesOf(keys));
  if (rank === "mixed") {
    needSelection("A meld holds one rank (plus wild cards): select one rank at a time, press Meld, then the next.");
    return false;
  }
  if (rank === "three") {
    needSelection("Threes can never be melded.");
    return false;
  }
  app.tray.push(keys);
  app.selection.clear();
  app.glow.clear();
  checkTray();
  renderMe();
  applyGlow();
  return true;
}

async function checkTray() {
  if (!app.tray.length) {
    app.trayCheck = null;
    return;
  }
  app.trayCheck = null;
  if (app.view?.phase === "draw") {
    app.trayCheck = { ok: null, message: "select the cards that go with the top card, then tap the pile" };
    renderTray();
    return;
  }
  const move = `meld ${joinGroups(trayGroups().map(groupText))}`;
  const r = await sock.request({ type: "check", move });
  if (`meld ${joinGroups(trayGroups().map(groupText))}` !== move) return; // tray changed meanwhile
  app.trayCheck = { ok: !!r.ok, message: r.message || (r.type === "error" ? r.message : "") };
  renderTray();
}

function doMeld() {
  if (!actionEnabled("meld")) return;
  const sel = selectedKeys();
  const opened = app.view.opened?.[mySide()];
  if (app.view.phase === "draw") {
    // before a pickup: stage the melds that go down with it, then tap the pile
    if (sel.length) return stageSelection();
    return doPickup();
  }
  if (!sel.length) {
    if (app.tray.length) return sendMove(`meld ${joinGroups(trayGroups().map(groupText))}`);
    return needSelection("Select the cards to meld first.");
  }
  if (!opened || app.tray.length) {
    stageSelection();
    return null;
  }
  if (legal().go_out && handEntries().length - sel.length < 2) {
    // a meld leaving fewer than two cards is only allowed as part of going out: stage it,
    // and Go out lays the staged melds down with the selected discard
    if (stageSelection()) setMessage("info", "Staged: these cards go down when you go out. Select your discard (if any) and press <b>Go out</b> <kbd>G</kbd>.");
    return null;
  }
  const codes = selectedCodes();
  const rank = groupRank(codes);
  if (rank === "mixed") {
    return needSelection("A meld holds one rank (plus wild cards): meld one rank at a time.");
  }
  return sendMove(`meld ${groupText(codes)}`);
}

function addTo(target) {
  const codes = selectedCodes();
  if (!codes.length) return needSelection("Select the cards to add first.");
  return sendMove(`meld ${addGroupText(target, codes)}`);
}

function doAdd() {
  if (!actionEnabled("add")) return;
  const glowing = [...app.glow];
  if (glowing.length === 1) return addTo(glowing[0].replace(/^book:/, ""));
  const rank = groupRank(selectedCodes());
  const melds = (app.view.melds?.[mySide()] || []).filter((m) => !m.book);
  const same = melds.filter((m) => rank && String(m.target) === rank);
  if (same.length === 1) return addTo(same[0].target);
  if (glowing.length > 1) return needSelection("Several melds could take these cards: tap the one you want.");
  return needSelection("None of your melds can take these cards. Tap a meld to try, or press Meld to start a new one.");
}

function doDiscard() {
  const sel = selectedCodes();
  if (sel.length !== 1) {
    if (legal().discard) needSelection("Select exactly one card to discard.");
    return null;
  }
  if (!actionEnabled("discard")) {
    if (legal().discard) setMessage("error", `<b>Not allowed:</b> you may not discard ${esc(cardLabel(sel[0]))} now.`);
    return null;
  }
  return sendMove(`discard ${kindOf(sel[0])}`);
}

function doGoOut() {
  if (!actionEnabled("goout")) return;
  return sendMove(goOutText(trayGroups(), selectedCodes()));
}

function doUndo() {
  if (!actionEnabled("undo")) return;
  sendMove("undo", { clear: false });
}

async function doHint() {
  if (!actionEnabled("hint") || !sock) return;
  const r = await sock.request({ type: "hint" });
  if (r.type !== "hint") {
    setMessage("error", esc(r.message || "no hint available"));
    return;
  }
  app.hint = { move: r.move, reason: r.reason };
  app.hintSeq = app.seq;
  // the move in people's words; the notation stays on the element (data-move) for Play it
  const advice = `<span class="hint-move" data-move="${esc(r.move)}">${esc(adviceWords(r.move))}</span>` +
    `${r.reason ? ` — ${esc(r.reason)}` : ""}`;
  if ($("#dlg-ask").open) {
    // the question is a modal dialog: the hint goes into it, not behind it
    const box = $("#ask-hint");
    box.innerHTML = `<b>Hint:</b> ${advice}`;
    box.hidden = false;
    return;
  }
  setMessage("hint", `<b>Hint${app.learn ? " (first-game mode)" : ""}:</b> ${advice}`,
    `<button type="button" class="btn small" id="btn-play-hint">Play it</button>`);
  renderHand();
}

function answer(yes) {
  if (!legal().answer) return;
  $("#dlg-ask").close();
  sendMove(yes ? "yes" : "no", { clear: false });
}

function doContinue() {
  const w = app.waiting;
  if (!w || isSpectator() || !(w.continue || []).includes(app.seat)) return;
  sock.send({ type: "continue", round: w.round });
  app.waiting = { ...w, continue: w.continue.filter((s) => s !== app.seat) };
  renderOverlay();
}

// The rematch is one game per finished game: whoever presses Rematch first makes it, and the
// server then tells every page of this table its own link ("rematch" message).
function rematchLink() {
  const link = app.rematch || "";
  return app.learn && params.get("learn") === "1" ? link.replace("#", "?learn=1#") : link;
}

function onRematch(msg) {
  if (!msg.link) return;
  const first = !app.rematch;
  app.rematch = msg.link;
  if (app.view?.phase === "game_over") renderOverlay();
  if (first) {
    setMessage("info", `A rematch has started: <a href="${esc(rematchLink())}">${isSpectator() ? "watch" : "join"} the rematch</a>.`);
  }
}

async function doRematch() {
  const btn = $("#btn-rematch");
  if (btn) btn.disabled = true;
  try {
    const res = await fetch(`/api/games/${encodeURIComponent(app.gameId)}/rematch`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token: app.token }),
    });
    const data = await res.json();
    if (!res.ok) throw new Error(data.error || `rematch failed (${res.status})`);
    const mine = data.seats?.find((s) => s.seat === app.seat && s.link);
    if (!mine?.link) throw new Error("the rematch has no link for this seat");
    app.rematch = mine.link;
    const link = rematchLink();
    location.assign(link);
    if (new URL(link, location.href).pathname === location.pathname) location.reload();
  } catch (err) {
    if (btn) btn.disabled = false;
    setMessage("error", esc(err.message));
  }
}

function toggleKey(key) {
  if (app.selection.has(key)) app.selection.delete(key);
  else app.selection.add(key);
  app.focusKey = key;
  if (app.hint && app.message?.kind === "hint") { /* keep the hint shown */ } else if (app.message?.kind === "info") setMessage(null);
  selectionChanged();
}

function clearSelection() {
  app.selection.clear();
  selectionChanged();
}

let glowTimer = null;
let glowGen = 0;
function selectionChanged() {
  app.glow.clear();
  renderHand();
  renderActions();
  applyGlow();
  clearTimeout(glowTimer);
  glowTimer = setTimeout(updateGlow, 120);
}

async function updateGlow() {
  const gen = ++glowGen;
  const codes = selectedCodes();
  if (!codes.length || !legal().meld || app.tray.length || !sock) return;
  const rank = groupRank(codes);
  if (rank === "mixed" || rank === "three") return;
  const melds = app.view.melds?.[mySide()] || [];
  const norm = (t) => (t === "T" ? "10" : String(t));
  // naturals go only to their rank's meld; wild cards alone may go to any meld
  const targets = [...new Map(melds.filter((m) => !rank || norm(m.target) === rank)
    .map((m) => [glowKey(m), m])).values()];
  const ask = (move) => sock.request({ type: "check", move }).then((r) => !!r.ok);
  const replies = await Promise.all(targets.map(async (m) => {
    const text = addGroupText(m.target, codes);
    if (!m.book) return [glowKey(m), await ask(`meld ${text}`)];
    // a book glows only when the engine adds the cards to it: "meld K K K" may instead
    // start a second meld beside it (where that is allowed, "meld new K K K" is legal
    // too), and one natural alone can only ever join the book
    if (!(await ask(`meld ${text}`))) return [glowKey(m), false];
    if (!isRankTarget(m.target) || !rank) return [glowKey(m), true];
    const beside = await ask(`meld new ${text}`);
    return [glowKey(m), !beside || (await ask(`meld ${rank}`))];
  }));
  if (gen !== glowGen) return;
  app.glow = new Set(replies.filter(([, ok]) => ok).map(([k]) => k));
  applyGlow();
  renderActions();
}

/** Mark the melds the selection can join, without rebuilding the board (a drag may be on). */
function applyGlow() {
  document.querySelectorAll('#my-side button.tb-meld[data-drop="meld"]').forEach((el) => {
    const on = app.glow.has(el.dataset.glow ?? el.dataset.target);
    el.classList.toggle("glow", on);
    const label = el.querySelector(".tb-meld-label");
    const tag = label?.querySelector(".glow-tag");
    if (on && !tag) label?.insertAdjacentHTML("beforeend", '<span class="glow-tag">add</span>');
    if (!on && tag) tag.remove();
    const base = (el.getAttribute("aria-label") || "").replace(/, your selection can be added$/, "");
    el.setAttribute("aria-label", on ? `${base}, your selection can be added` : base);
  });
}

// --- wiring -----------------------------------------------------------------------------

function onState(msg) {
  const prevRound = app.view?.round;
  const prevPhase = app.view?.phase;
  app.view = msg.view;
  app.seq = msg.seq ?? app.seq;
  if (Array.isArray(msg.presence)) app.presence = msg.presence;
  app.waiting = msg.waiting || null;
  if (prevRound !== undefined && prevRound !== app.view.round) {
    app.overlayHidden = false;
    app.lastMove = {};
  }
  if (!app.waiting && app.view.phase !== "game_over") app.overlayHidden = false;
  addEvents(msg.events, { highlight: !app.firstState });
  app.firstState = false;
  // keep only selected/staged cards that are still in hand
  const keys = new Set(handEntries().map((e) => e.key));
  for (const k of [...app.selection]) if (!keys.has(k)) app.selection.delete(k);
  const before = app.tray.length;
  app.tray = app.tray.filter((g) => g.every((k) => keys.has(k)));
  if (app.tray.length !== before || (app.tray.length && prevPhase !== app.view.phase)) checkTray();
  if (!myTurn() && !legal().answer) {
    app.glow.clear();
    if (app.hint) {
      app.hint = null;
      if (app.message?.kind === "hint") app.message = null;
    }
  }
  render();
  if (app.selection.size) {
    clearTimeout(glowTimer);
    glowTimer = setTimeout(updateGlow, 60);
  }
  if (app.learn && (myTurn() || legal().answer) && app.hintSeq !== app.seq && !app.busy) {
    app.hintSeq = app.seq;
    doHint();
  }
}

function onStatus(status, detail) {
  const el = $("#conn");
  const text = { connecting: "connecting…", online: "connected", reconnecting: `connection lost — ${detail || "reconnecting"}…`, auth: detail || "this link is not valid" }[status] || status;
  el.textContent = text;
  el.className = `conn ${status}`;
  document.body.classList.toggle("offline", status !== "online");
  if (app.view) renderActions();
}

function wire() {
  document.addEventListener("click", (ev) => {
    if (ev.target.closest("#message.hint .msg-text")) return $("#message").classList.toggle("open");
    const t = ev.target.closest("button, [data-key]");
    if (!t) return;
    if (t.classList.contains("hand-card")) return toggleKey(t.dataset.key);
    const action = t.dataset.action;
    if (action) {
      ({ draw: doDraw, pickup: doPickup, meld: doMeld, add: doAdd, discard: doDiscard, goout: doGoOut,
        undo: doUndo, hint: doHint, knock: () => sendMove("knock"), knee: () => sendMove("knee", { clear: false }),
        clear: clearSelection })[action]?.();
      return;
    }
    if (t.id === "stock-btn") return doDraw();
    if (t.id === "pile-btn") {
      if (app.selection.size === 1 && legal().discard && !legal().pickup) return doDiscard();
      return doPickup();
    }
    if (t.dataset.drop === "meld") {
      if (!app.selection.size) return needSelection("Select cards in your hand, then tap this meld to add them.");
      return addTo(t.dataset.target);
    }
    if (t.classList.contains("ov-tab")) return showOverlayTab(t.dataset.tab);
    if (t.dataset.untray !== undefined) {
      app.tray.splice(Number(t.dataset.untray), 1);
      checkTray();
      return renderMe();
    }
    switch (t.id) {
      case "btn-laydown": return sendMove(`meld ${joinGroups(trayGroups().map(groupText))}`);
      case "btn-tray-pickup": return doPickup();
      case "btn-untray-all": app.tray = []; app.trayCheck = null; app.trayOpen = null; return renderMe();
      case "btn-tray-toggle": app.trayOpen = !trayOpen(); return renderTray();
      case "btn-continue": return doContinue();
      case "btn-rematch": return doRematch();
      case "btn-hide-overlay": app.overlayHidden = true; return renderOverlay();
      case "btn-show-scores": app.overlayHidden = false; return renderOverlay();
      case "btn-play-hint": return app.hint && sendMove(app.hint.move);
      case "btn-help": return $("#dlg-help").showModal();
      case "ask-yes": return answer(true);
      case "ask-no": return answer(false);
      case "ask-hint-btn": return doHint();
      default:
        if (t.classList.contains("msg-x")) return setMessage(null);
    }
  });
  $("#opt-four").checked = app.fourColour;
  $("#opt-learn").checked = app.learn;
  $("#opt-four").addEventListener("change", (ev) => {
    app.fourColour = ev.target.checked;
    localStorage.setItem("handfoot.fourColour", app.fourColour ? "1" : "0");
    render();
  });
  $("#opt-learn").addEventListener("change", (ev) => {
    app.learn = ev.target.checked;
    localStorage.setItem("handfoot.learn", app.learn ? "1" : "0");
    if (app.learn) doHint();
  });
  $("#dlg-ask").addEventListener("cancel", (ev) => ev.preventDefault()); // an answer is needed
  attachArrowNav($("#hand"));
  $("#hand").addEventListener("focusin", (ev) => { if (ev.target.dataset.key) app.focusKey = ev.target.dataset.key; });
  attachKeys({
    d: doDraw, p: doPickup, m: doMeld, a: doAdd, x: doDiscard, g: doGoOut, u: doUndo, h: doHint,
    y: () => answer(true), n: () => answer(false), c: doContinue,
    escape: () => {
      if ($("#dlg-help").open) return $("#dlg-help").close();
      if (app.selection.size) return clearSelection();
      if (app.message) return setMessage(null);
    },
    "?": () => ($("#dlg-help").open ? $("#dlg-help").close() : $("#dlg-help").showModal()),
  });
  attachDrag($("#hand"), {
    onStart: (card) => {
      if (isSpectator() || !myTurn()) return null;
      const key = card.dataset.key;
      if (!app.selection.has(key)) {
        app.selection.add(key);
        selectionChanged();
      }
      const codes = selectedCodes();
      return codes.map((c) => cardSvg(c, { width: 40, fourColour: app.fourColour })).join("");
    },
    onDrop: (target) => {
      const kind = target.dataset.drop;
      if (kind === "pile") return doDiscard();
      if (kind === "meld") return addTo(target.dataset.target);
      if (kind === "melds") {
        if (!legal().meld) return needSelection("You can meld after you draw.");
        return doMeld();
      }
      return null;
    },
  });
  $("#help-keys").innerHTML = KEYS.map(([k, t]) => `<tr><th scope="row"><kbd>${esc(k)}</kbd></th><td>${esc(t)}</td></tr>`).join("");
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(render, 100);
  });
}

function fitHeight() {
  // the table fills the window under the site header, whatever its height
  const header = document.querySelector(".site-header");
  document.documentElement.style.setProperty("--hdr", `${header ? header.offsetHeight : 0}px`);
}

function start() {
  fitHeight();
  window.addEventListener("resize", fitHeight);
  wire();
  if (!app.token) {
    onStatus("auth", "this page needs the link you were given (it ends in #t=… or #s=…)");
    return;
  }
  sock = new GameSocket({
    gameId: app.gameId,
    token: app.token,
    url: window.HANDFOOT_WS_URL || null,
    onWelcome: (msg) => {
      app.welcome = msg;
      app.seat = msg.seat ?? null;
      document.title = `${msg.game?.profile_title || "Hand and Foot"} · handfoot`;
      if (app.view) render();
    },
    onState,
    onPresence: (p) => {
      app.presence = p;
      if (app.view) { renderSeats(); renderMe(); }
    },
    onStatus,
    onRematch,
    onError: (msg) => setMessage("error", esc(msg.message || "error")),
  });
  sock.connect();
}

// exposed for tests and the console
window.handfoot = { app, render };
void isWildKind;
start();
