// The moves list: each event as a line in people's words (the server's `words`, never the
// notation read back), the seat panels' last moves, the phone's ticker, and the flash that
// shows where another player's move landed (its melds by their `target`).

import { cardChip } from "./cards.js";
import { $, app, seatName, sideOf } from "./table-state.js";
import { fillTalk } from "./talk.js";
import { esc } from "./text.js";

/** One event as a line of the moves list; `name: false` in a seat's own panel, where the
 * name is already there ("discarded 7♠"). */
export function describeEvent(e, { name = true } = {}) {
  const who = name ? esc(seatName(e.seat)) : "";
  const chips = (codes) => (codes || []).map((c) => cardChip(c, { fourColour: app.fourColour })).join("");
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
      const about = [n ? `${n} card${n === 1 ? "" : "s"}` : "", e.top ? `${chips([e.top])} on top` : ""].filter(Boolean);
      let t = `${who} ${esc(e.words)}${about.length ? ` (${about.join(", ")})` : ""}`;
      const taken = e.private?.taken || e.taken;
      if (taken?.length) t += `<span class="taken"> into the hand: ${chips(taken)}</span>`;
      return t;
    }
    case "meld":
      return `${who} melded ${e.cards?.length ? chips(e.cards) : esc(e.words)}`;
    case "discard":
      return `${who} discarded ${e.card ? chips([e.card]) : ""}`;
    case "go_out":
      // with partners the move is a question; it is carried out on a yes (see "answer")
      if (e.asked) return `${who} ${name && e.seat === app.seat ? "ask" : "asks"}: may I go out?`.trim();
      return `${who} ${esc(e.words)}`;
    case "answer": {
      const t = `${who} answered ${e.yes === false ? "no" : "yes"}`;
      if (e.going_out_words) {
        const goer = e.going_out === app.seat ? "you" : seatName(e.going_out);
        return `${t}, and ${esc(goer)} ${esc(e.going_out_words)}`;
      }
      return `${t}${e.round_end ? " and the round is over" : ""}`;
    }
    default:
      return `${who} ${esc(e.words || e.type || "")}`;
  }
}

/** Add the events of a `state` message (each once); `highlight` flashes where they landed.
 * Returns the events new to the page. */
export function addEvents(events, { highlight }) {
  const fresh = [];
  for (const e of events || []) {
    const key = `${e.round ?? ""}:${e.n ?? app.log.length}:${e.type}`;
    if (app.seen.has(key)) continue;
    app.seen.add(key);
    fresh.push(e);
    app.log.push({ key, seat: e.seat, event: e, mine: e.seat === app.seat, round: e.round });
    if (e.seat !== undefined && e.seat !== null) app.lastMove[e.seat] = e;
    if (e.round_end || e.type === "round_end") {
      const r = e.round_end || e;
      app.log.push({ key: `${key}:end`, seat: null, html: `Round ${esc(r.round ?? e.round ?? "")} over${r.reason ? `: ${esc(r.reason)}` : ""}`, mine: false });
    }
    if (highlight && e.seat !== app.seat) flashFor(e);
  }
  if (app.log.length > 120) app.log.splice(0, app.log.length - 120);
  return fresh;
}

function flashFor(e) {
  const until = Date.now() + 2600;
  app.flash.set(`seat-${e.seat}`, until);
  if (e.type === "discard" || e.type === "pickup") app.flash.set("pile", until);
  if (e.type === "draw") app.flash.set("stock", until);
  for (const meld of e.melds || []) app.flash.set(`meld-${sideOf(e.seat)}-${meld.target}`, until);
  setTimeout(applyFlash, 2700);
}

export function applyFlash() {
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

export function renderLog() {
  const items = app.log.slice(-60);
  const timeouts = new Set(app.view?.correspondence?.timeouts || []);
  const html = (it) => it.html ?? (describeEvent(it.event)
    + (it.event && timeouts.has(it.event.n - 1) ? ' <span class="timeout-mark">(time ran out: the stand-in played)</span>' : ""));
  $("#log").innerHTML = items.map((it) => (it.talk
    ? `<li class="talk${it.mine ? " mine" : ""}"></li>` // filled as text by talk.js
    : `<li class="${it.mine ? "mine" : ""}${it.seat === null ? " sys" : ""}">${html(it)}</li>`)).join("");
  const lg = $("#log");
  fillTalk(lg, items);
  lg.scrollTop = lg.scrollHeight;
  // ticker: other players' latest moves, for small screens
  const others = items.filter((it) => !it.mine && it.seat !== null && !it.talk).slice(-2);
  $("#ticker").innerHTML = others.map((it) => `<span>${html(it)}</span>`).join("");
}
