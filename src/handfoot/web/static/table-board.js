// The board: the top bar (round, rules, scores), the other seats' panels, every side's melds
// (your side's are buttons the selection can be added to, glowing where the view's `kinds`
// say it can join), and the stock and the discard pile between them.

import { cardBack, cardChip, cardLabel, cardSvg, kindRankIndex, parseCard } from "./cards.js";
import { describeEvent } from "./table-log.js";
import {
  $, app, bottomSeat, isSpectator, legal, mySide, openingMinimum, packetText, players,
  playingText, seatName, seatRole, sideName, sideOf, sides,
} from "./table-state.js";
import { esc, number } from "./text.js";
import { pickupSize } from "./words.js";

export function renderTop() {
  const v = app.view;
  const g = app.welcome?.game || {};
  $("#round-info").innerHTML =
    `<span class="round">Round ${v.round} of ${v.rounds}</span>` +
    `<span class="profile">${esc(g.profile_title || g.profile || "")}</span>` +
    `<span class="minimum">Opening: ${number(openingMinimum(mySide()))} points</span>`;
  const totals = v.scores?.totals || [];
  const melded = v.scores?.melded || [];
  $("#scoreline").innerHTML = totals.map((t, i) =>
    `<span class="score${i === mySide() && !isSpectator() ? " mine" : ""}"><b>${esc(sideName(i))}</b> ` +
    `<span class="total" title="running total">${number(t)}</span>` +
    `<span class="melded" title="points melded this round">+${number(melded[i] ?? 0)} melded</span></span>`).join("");
}

export function renderSeats() {
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

export const CAN_ADD = ", your selection can be added";

/** A meld button's name: what it shows first (so the name holds the visible text, for voice
 * control), then in words; `glow`: the selection can join it. */
export function meldName(visible, words, glow) {
  return glow ? `${visible} add: ${words}${CAN_ADD}` : `${visible}: ${words}`;
}

/** One meld; `index` is its place in view.melds[side] (the view's `kinds` name melds so). */
function meldHtml(meld, index, side, mine) {
  const w = window.innerWidth < 700 ? 30 : 40;
  const target = meld.target;
  const label = target === "wild" ? "Wild" : target;
  const glow = mine && app.glow.has(index);
  const cardsIn = meld.cards || [];
  const wilds = meld.wilds ?? cardsIn.filter((c) => parseCard(c).wild).length;
  const name = meld.label || target;
  // your side's melds, books too, are buttons: the selection is added to the one pressed
  const button = mine && !isSpectator();
  const flash = `data-flash="meld-${side}-${target}"`;
  // the cards are drawn for the eye; the meld's name says what they are
  const face = (c, width) => cardSvg(c, { width, fourColour: app.fourColour, label: button ? "" : undefined });
  if (meld.book) {
    const top = cardsIn.find((c) => !parseCard(c).wild) || cardsIn[0];
    const text = { clean: "Clean", dirty: "Dirty", wild: "Wild" }[meld.book] || meld.book;
    const visible = `${label} ${meld.size} ${text}`;
    const words = `${esc(name)}, ${text.toLowerCase()} book of ${meld.size}${wilds ? `, ${wilds} wild` : ""}`;
    const tag = button ? "button" : "div";
    return `<${tag} class="tb-meld book book-${meld.book}${glow ? " glow" : ""}" ${flash} ${meldAttrs(button, target, index, visible, words, glow)}>` +
      `<div class="book-stack">${face(top || "JK", Math.round(w * 0.72))}</div>` +
      `<div class="book-label tb-meld-label"><span><b>${label}</b> <span class="book-size">${meld.size}</span></span> <span class="book-kind">${text}</span>` +
      `${glow ? ' <span class="glow-tag">add</span>' : ""}</div></${tag}>`;
  }
  const need = meld.book_size || 7;
  const tag = button ? "button" : "div";
  const visible = `${label} ${meld.size}/${need}${wilds ? ` ${wilds}W` : ""}`;
  const words = `${esc(name)}, ${meld.size} of ${need}${wilds ? `, ${wilds} wild` : ", clean so far"}`;
  const stride = Math.max(9, Math.round(w * 0.34));
  const fanW = w + stride * Math.max(0, cardsIn.length - 1);
  const fan = cardsIn.map((c, i) =>
    `<span class="tb-fan-card" style="left:${i * stride}px">${face(c, w)}</span>`).join("");
  return `<${tag} class="tb-meld open${wilds ? " has-wild" : ""}${glow ? " glow" : ""}" ${flash} ${meldAttrs(button, target, index, visible, words, glow)}>` +
    `<div class="tb-meld-label"><b>${label}</b> <span class="progress">${meld.size}/${need}</span>` +
    `${wilds ? ` <span class="wildcount">${wilds}W</span>` : ""}${glow ? ' <span class="glow-tag">add</span>' : ""}</div>` +
    `<div class="meld-fan" style="width:${fanW}px;height:${Math.round(w * 1.4)}px">${fan}</div></${tag}>`;
}

function meldAttrs(button, target, index, visible, words, glow) {
  return button
    ? `type="button" data-drop="meld" data-target="${esc(target)}" data-meld="${index}" ` +
      `data-visible="${esc(visible)}" data-words="${words}" aria-label="${meldName(esc(visible), words, glow)}"`
    : `role="img" aria-label="${meldName(esc(visible), words, false)}"`;
}

/** Books first, then by rank (A K Q ... 4), the all-wild meld last; each with its index. */
function sortMelds(melds) {
  const order = (m) => (m.target === "wild" ? 50 : kindRankIndex(m.target));
  return melds.map((meld, index) => ({ meld, index }))
    .sort((a, b) => (b.meld.book ? 1 : 0) - (a.meld.book ? 1 : 0) || order(a.meld) - order(b.meld));
}

function sideArea(side, mine) {
  const v = app.view;
  const melds = sortMelds(v.melds?.[side] || []);
  const reds = v.red_threes?.[side] || [];
  const opened = v.opened?.[side];
  const books = melds.filter((m) => m.meld.book);
  const open = melds.filter((m) => !m.meld.book);
  const bookCount = { clean: 0, dirty: 0, wild: 0 };
  books.forEach((b) => { bookCount[b.meld.book] = (bookCount[b.meld.book] || 0) + 1; });
  const bookSummary = Object.entries(bookCount).filter(([, n]) => n).map(([k, n]) => `${n} ${k}`).join(", ");
  const drop = mine && !isSpectator() ? ' data-drop="melds"' : "";
  const html = (list) => list.map((m) => meldHtml(m.meld, m.index, side, mine)).join("");
  let body = "";
  if (!melds.length) {
    body = `<div class="no-melds">${mine && !isSpectator() && legal().meld ? "No melds yet — select cards and press Meld, or drag them here" : "No melds yet"}</div>`;
  } else {
    body = `<div class="books">${html(books)}</div><div class="opens">${html(open)}</div>`;
  }
  return `<section class="side-area side-${side}${mine ? " mine" : ""}" aria-label="${esc(sideName(side))}: melds">` +
    `<header class="tb-side-head"><b>${esc(sideName(side))}</b>` +
    `<span class="opened ${opened ? "yes" : "no"}">${opened ? "✓ opened" : `not opened · needs ${number(openingMinimum(side))}`}</span>` +
    `<span class="melded">${number(v.scores?.melded?.[side] ?? 0)} melded</span>` +
    (bookSummary ? `<span class="bookcount">books: ${bookSummary}</span>` : "") +
    (reds.length ? `<span class="tb-reds" aria-label="red threes: ${reds.length}">red 3s ${reds.map((c) => cardChip(c, { fourColour: app.fourColour })).join("")}</span>` : "") +
    `</header><div class="tb-melds"${drop}>${body}</div></section>`;
}

export function renderBoard() {
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
  // the buttons are named by what they show (with words for the eye-less only): a name that
  // holds the visible text is the one a voice-control user can say
  const stock = `<button type="button" class="pile-btn tb-stock${canDraw ? " can" : ""}" id="stock-btn" data-flash="stock" ` +
    `${canDraw ? "" : 'aria-disabled="true"'}>` +
    `${cardBack({ width: w, label: "" })}<span class="pile-cap"><b>Stock</b> ${number(v.stock)}<span class="visually-hidden"> cards</span></span>` +
    `${canDraw ? ' <span class="pile-hint">tap to draw</span>' : ""}</button>`;
  const top = d.top ? cardSvg(d.top, { width: w, fourColour: app.fourColour, label: "" }) :
    `<svg class="card empty" width="${w}" height="${Math.round(w * 1.4)}" viewBox="0 0 100 140" aria-hidden="true"><rect x="2" y="2" width="96" height="136" rx="8" fill="none" stroke="#9aa" stroke-dasharray="6 5" stroke-width="2"/></svg>`;
  const pile = `<button type="button" class="pile-btn tb-pile${canPick ? " can" : ""}" id="pile-btn" data-drop="pile" data-flash="pile">` +
    `${top}<span class="pile-cap"><b>Pile</b> ${number(d.size ?? 0)}<span class="visually-hidden"> cards${d.top ? `, ${esc(cardLabel(d.top))} on top` : ", empty"}</span></span>` +
    (d.top && d.pickup_size ? ` <span class="pile-sub">${pickupSize(d.pickup_size)}</span>` : "") +
    `${canPick ? ' <span class="pile-hint">tap to pick up</span>' : ""}</button>`;
  $("#center").innerHTML = stock + pile;
}
