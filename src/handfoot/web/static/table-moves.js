// What the buttons, keys and drops do: each move written in the notation (table-notation.js)
// and sent; the server's answer is the only judge. A selection holding a card the view's
// `kinds` says can go into no meld shows that reason instead of being sent. Also the
// staged melds (checked when a group is staged), hints, answers, Continue and Rematch.

import { cardChip, cardLabel, kindOf } from "./cards.js";
import {
  actionEnabled, applyGlow, renderActions, renderHand, renderMe, renderTray, setMessage,
} from "./table-hand.js";
import { noteTray } from "./table-motion.js";
import { addGroupText, goOutText, groupText, meldText, pickupText } from "./table-notation.js";
import { renderOverlay } from "./table-overlay.js";
import {
  $, app, codesOf, handEntries, isSpectator, legal, link, myMelds, mySide, rematchLink,
  selectedCodes, selectedKeys, trayGroups, whyNot,
} from "./table-state.js";
import { esc } from "./text.js";

async function sendMove(move, { clear = true } = {}) {
  if (app.busy || !link.sock) return null;
  app.busy = true;
  // a hint stays until a move is played: the decision it is for is still to be made
  if (app.message?.kind !== "hint") setMessage(null);
  renderActions();
  // the ack is taken at once, before the state that shows the move is drawn (socket.js)
  const reply = await requestMove(move, () => {
    app.busy = false;
    played(clear);
  });
  app.busy = false;
  if (reply.type === "error") {
    const reason = reply.message || "not allowed";
    if (app.tray.length && move === meldText(trayGroups())) {
      // the staged melds were refused: the reason shows once, beside them
      app.trayCheck = { ok: false, message: reason, refused: true };
      app.trayOpen = true;
    } else {
      refuse(reason);
    }
  }
  if (app.view) renderMe();
  return reply;
}

/** A move of ours was played (its ack came): the selection (when `clear`), the tray and
 * the hint go; the tray's cards fly from where they were once the state comes. */
function played(clear) {
  if (clear) {
    app.selection.clear();
    if (app.tray.length) { // laid down: their cards fly from the tray once the state comes
      noteTray();
      app.laid = app.tray.flat();
    }
    app.tray = [];
    app.trayCheck = null;
    app.glow.clear();
  }
  app.hint = null;
  if (app.message?.kind === "hint") setMessage(null);
}

/** How long to wait before each resend of a move the server was too busy to play (its
 * database did not answer: it says "busy" and keeps the socket). */
export const BUSY_RETRY_MS = [1000, 2000, 4000, 8000];

/** Send a move; a "busy" answer (the move was not played) is shown and the move sent again
 * after a back-off, a few times; resolves with the last answer. `onAck` is called as
 * soon as the move's ack comes, before the state that shows the move. */
async function requestMove(move, onAck) {
  const onReply = (r) => { if (r.type === "ack") onAck(r); };
  let reply = await link.sock.request({ type: "move", move }, onReply);
  for (const wait of BUSY_RETRY_MS) {
    if (reply.type !== "error" || reply.code !== "busy") break;
    setMessage("info", "The server is busy; your move was not played, retrying…");
    await new Promise((resolve) => { setTimeout(resolve, wait); });
    reply = await link.sock.request({ type: "move", move }, onReply);
  }
  if (reply.type === "error" && reply.code === "busy") {
    return { ...reply, message: "the server is still busy, so your move was not played: try it again in a moment" };
  }
  if (app.message?.kind === "info" && app.message.html.startsWith("The server is busy")) setMessage(null);
  return reply;
}

function needSelection(text) {
  setMessage("info", esc(text));
  return null;
}

/** A refused move's reason; the hint for this decision, if one was shown, stays under it. */
function refuse(reason) {
  const hint = app.hint?.move ? `<br>${hintHtml()}` : "";
  setMessage("error", `<b>Not allowed:</b> ${esc(reason)}${hint}`,
    hint ? `<button type="button" class="btn small" id="btn-play-hint">Play it</button>` : "");
  return null;
}

/** The hint shown: the move in words (the notation on the element as data-move) and why. */
function hintHtml() {
  const h = app.hint;
  return `<b>Hint${app.learn ? " (first-game mode)" : ""}:</b> <span class="hint-move" data-move="${esc(h.move)}">${esc(h.words)}</span>` +
    `${h.reason ? ` — ${esc(h.reason)}` : ""}`;
}

export function doDraw() {
  if (!actionEnabled("draw")) return;
  sendMove("draw", { clear: false });
}

export function doPickup() {
  if (!actionEnabled("pickup")) return null;
  const top = app.view.discard?.top;
  const sel = selectedCodes();
  if (!sel.length && !app.tray.length && top) {
    // nothing selected: the pickup the view says needs no card of the hand, if there is one
    const alone = legal().pickup_alone;
    if (alone) return sendMove(alone);
    setMessage("error", `<b>Can't pick up yet:</b> select the cards from your hand that go with the ` +
      `${cardChip(top, { fourColour: app.fourColour })} on top, then press Pick up.`);
    return null;
  }
  return sendMove(pickupText(sel, trayGroups()));
}

/** The selection to the staged melds (laid down together, or with a pickup). */
function stageSelection() {
  const keys = selectedKeys();
  const why = whyNot(codesOf(keys));
  if (why) {
    refuse(why);
    return false;
  }
  app.tray.push(keys);
  return staged();
}

/** After cards were staged: the selection is spent, an old refusal goes (the staged melds
 * say how they stand), and the hand and tray are drawn again. */
function staged() {
  if (app.message?.kind === "error") setMessage(null);
  app.selection.clear();
  app.glow.clear();
  checkTray();
  renderMe();
  applyGlow();
  return true;
}

/** Ask the server whether the staged melds could be laid down now (once per change of them,
 * never while cards are only selected). */
export async function checkTray() {
  app.trayCheck = null;
  if (!app.tray.length) return;
  if (app.view?.phase === "draw") {
    app.trayCheck = { ok: null, message: "select the cards that go with the top card, then tap the pile" };
    renderTray();
    return;
  }
  const move = meldText(trayGroups());
  const r = await link.sock.request({ type: "check", move });
  if (meldText(trayGroups()) !== move) return; // the staged melds changed meanwhile
  app.trayCheck = { ok: !!r.ok, message: r.message || "" };
  renderTray();
}

export function layDown() {
  return sendMove(meldText(trayGroups()));
}

export function doMeld() {
  if (!actionEnabled("meld")) return null;
  const sel = selectedKeys();
  const opened = app.view.opened?.[mySide()];
  if (app.view.phase === "draw") {
    // before a pickup: stage the melds that go down with it, then tap the pile
    if (sel.length) return stageSelection();
    return doPickup();
  }
  if (!sel.length) {
    if (app.tray.length) return layDown();
    return needSelection("Select the cards to meld first.");
  }
  if (!opened || app.tray.length) {
    stageSelection();
    return null;
  }
  if (legal().go_out && handEntries().length - sel.length < (legal().meld_leaves ?? 0)) {
    // a meld leaving fewer cards than the rules keep in hand is only allowed as part of
    // going out (the view says how many): stage it, and Go out lays the staged melds down
    // with the selected discard
    if (stageSelection()) setMessage("info", "Staged: these cards go down when you go out. Select your discard (if any) and press <b>Go out</b> <kbd>G</kbd>.");
    return null;
  }
  const codes = selectedCodes();
  const why = whyNot(codes);
  if (why) return refuse(why);
  return sendMove(`meld ${groupText(codes)}`);
}

/** The selection onto the side's meld of `target` (a meld's `target` in the view), the
 * meld at `index` of the side's melds when known (the one tapped or dropped on): the cards
 * join that meld or none. A card the view's `kinds` says cannot go there is refused with
 * the reason, before anything is sent; the rest is the engine's to judge. */
export function addTo(target, index = null) {
  const codes = selectedCodes();
  if (!codes.length) return needSelection("Select the cards to add first.");
  const why = whyNot(codes) || (index === null ? null : whyNotThere(codes, target, Number(index)));
  if (why) return refuse(why);
  return sendMove(`meld ${addGroupText(target, codes)}`);
}

/** Why some card of `codes` cannot join the side's meld at `index` (of `target`), from the
 * view's `kinds` (where the engine says each kind can go), or null. */
function whyNotThere(codes, target, index) {
  for (const code of codes) {
    const kind = kindOf(code);
    const entry = (app.view?.kinds || []).find((k) => k.kind === kind);
    if (!entry || entry.melds.includes(index)) continue;
    const wild = kind === "2" || kind === "JK";
    const card = cardLabel(code);
    const melds = myMelds();
    const name = (i) => {
      const m = melds[i];
      return m?.target === "wild" ? "your all-wild meld" : `your ${m?.label || m?.target}`;
    };
    const here = target === "wild" ? "the all-wild meld" : `the ${melds[index]?.label || target}`;
    let why;
    if (target === "wild" && !wild) why = `the ${card} can't go onto ${here}: an all-wild meld holds only wild cards`;
    else if (target !== "wild" && !wild && kindOf(code) !== target) why = `the ${card} can't go onto ${here}: a meld holds one rank`;
    else if (melds[index]?.book && !wild) why = `the ${card} can't go onto ${here}: that book takes no more cards now`;
    else continue; // the engine's own reason follows the move
    const elsewhere = entry.melds.map(name);
    if (elsewhere.length) why += `; it can go onto ${elsewhere.join(" or ")}`;
    else if (entry.new) why += "; it can start a new meld (drop it on your meld area)";
    return why;
  }
  return null;
}

/** A drop on the meld area: the selection starts a new meld, staged (a card or two at a time
 * grows it: each drop adds to the staged group of its rank); three or more cards with
 * nothing staged after the side has opened are melded at once, as Meld does. */
export function dropOnMeldArea() {
  const phase = app.view?.phase;
  if (!(legal().meld || (phase === "draw" && legal().pickup))) return setMessage("info", "You can meld after you draw.");
  const keys = selectedKeys();
  if (!keys.length) return null;
  const opened = app.view.opened?.[mySide()];
  if (phase === "play" && opened && !app.tray.length && keys.length >= 3) return doMeld();
  const naturals = new Set(codesOf(keys).map(kindOf).filter((k) => k !== "2" && k !== "JK"));
  const rank = naturals.size === 1 ? [...naturals][0] : null;
  const group = app.tray.findIndex((g) => {
    const own = new Set(codesOf(g).map(kindOf).filter((k) => k !== "2" && k !== "JK"));
    return rank !== null ? own.has(rank) : naturals.size === 0 && own.size > 0;
  });
  if (group >= 0) return dropOnStaged(group);
  return stageSelection();
}

/** A drop on a staged group: the selection joins it. */
export function dropOnStaged(group) {
  const keys = selectedKeys();
  if (!keys.length || !app.tray[group]) return null;
  const why = whyNot(codesOf(keys));
  if (why) return refuse(why);
  app.tray[group] = [...app.tray[group], ...keys];
  return staged();
}

export function doAdd() {
  if (!actionEnabled("add")) return null;
  const why = whyNot(selectedCodes());
  if (why) return refuse(why);
  const glowing = [...app.glow];
  if (glowing.length === 1) return addTo(myMelds()[glowing[0]].target);
  if (glowing.length > 1) return needSelection("Several melds could take these cards: tap the one you want.");
  return needSelection("None of your melds can take these cards. Tap a meld to try, or press Meld to start a new one.");
}

export function doDiscard() {
  const sel = selectedCodes();
  if (sel.length !== 1) {
    if (legal().discard) needSelection("Select exactly one card to discard.");
    return null;
  }
  if (!actionEnabled("discard")) {
    if (legal().discard) refuse(`you may not discard ${cardLabel(sel[0])} now.`);
    return null;
  }
  return sendMove(`discard ${kindOf(sel[0])}`);
}

export function doGoOut() {
  if (!actionEnabled("goout")) return;
  sendMove(goOutText(trayGroups(), selectedCodes()));
}

export function doUndo() {
  if (!actionEnabled("undo")) return;
  sendMove("undo", { clear: false });
}

export function doKnock() {
  sendMove("knock");
}

export function doKnee() {
  sendMove("knee", { clear: false });
}

export function playHint() {
  if (app.hint?.move) sendMove(app.hint.move);
}

export async function doHint() {
  if (!actionEnabled("hint") || !link.sock) return;
  const r = await link.sock.request({ type: "hint" });
  if (r.type !== "hint") {
    setMessage("error", esc(r.message || "no hint available"));
    return;
  }
  // the move in words (the server's); `kinds` marks its cards in the hand, `move` (the
  // notation, on the element as data-move) is what Play it sends
  app.hint = { move: r.move, words: r.words, kinds: r.kinds || [], reason: r.reason };
  app.hintSeq = app.seq;
  if ($("#dlg-ask").open) {
    // the question is a modal dialog: the hint goes into it, not behind it
    const box = $("#ask-hint");
    box.innerHTML = hintHtml().replace(" (first-game mode)", "");
    box.hidden = false;
    return;
  }
  setMessage("hint", hintHtml(),
    `<button type="button" class="btn small" id="btn-play-hint">Play it</button>`);
  renderHand();
}

export function answer(yes) {
  if (!legal().answer) return;
  $("#dlg-ask").close();
  sendMove(yes ? "yes" : "no", { clear: false });
}

export function doContinue() {
  const w = app.waiting;
  if (!w || isSpectator() || !(w.continue || []).includes(app.seat)) return;
  link.sock.send({ type: "continue", round: w.round });
  app.waiting = { ...w, continue: w.continue.filter((s) => s !== app.seat) };
  renderOverlay();
}

export function onRematch(msg) {
  if (!msg.link) return;
  const first = !app.rematch;
  app.rematch = msg.link;
  if (app.view?.phase === "game_over") renderOverlay();
  if (first) {
    setMessage("info", `A rematch has started: <a href="${esc(rematchLink())}">${isSpectator() ? "watch" : "join"} the rematch</a>.`);
  }
}

export async function doRematch() {
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
    const to = rematchLink();
    location.assign(to);
    if (new URL(to, location.href).pathname === location.pathname) location.reload();
  } catch (err) {
    if (btn) btn.disabled = false;
    setMessage("error", esc(err.message));
  }
}
