// Input for the table: keyboard shortcuts (the KEYS table the help dialog and docs/web.md
// show), arrow-key movement in the hand, and drag and drop with pointer events (mouse, pen
// and touch alike). The moves themselves are written in table-moves.js.

// --- keyboard ---------------------------------------------------------------------------

export const KEYS = [
  ["Tab, ←/→, ↑/↓", "move between cards"],
  ["Enter or Space", "select or unselect the card"],
  ["D", "draw from the stock"],
  ["P", "pick up the discard pile (with the selected cards)"],
  ["M", "meld the selected cards; before your side opens, or before a pickup, M stages them and lays them down together (M with nothing selected); a meld that would leave you fewer than 2 cards is staged for going out"],
  ["A", "add the selected cards to the glowing meld"],
  ["X", "discard the selected card"],
  ["G", "go out (staged melds, then the selected card as the discard)"],
  ["U", "undo your last meld this turn"],
  ["Ctrl+Z or ⌘Z", "undo, like U"],
  ["H", "hint: what the hard bot would do"],
  ["Y / N", "answer your partner: may I go out?"],
  ["C", "continue to the next round"],
  ["Esc", "clear the selection, close a dialog"],
  ["?", "this help"],
];

/**
 * Global shortcuts. `actions` maps a key name ("d", "p", ..., "escape", "?") to a function.
 * Keys are ignored while typing in a field, and with Ctrl/Alt/Meta held (but Ctrl+Z / ⌘Z: undo).
 */
export function attachKeys(actions) {
  document.addEventListener("keydown", (ev) => {
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) {
      return; // typing: Ctrl+Z is the box's own undo
    }
    if (ev.ctrlKey || ev.altKey || ev.metaKey) {
      if ((ev.ctrlKey || ev.metaKey) && !ev.altKey && !ev.shiftKey && ev.key.toLowerCase() === "z" && actions.u) {
        ev.preventDefault();
        actions.u();
      }
      return;
    }
    const key = ev.key === "Escape" ? "escape" : ev.key.length === 1 ? ev.key.toLowerCase() : null;
    if (!key) return;
    const fn = actions[key];
    if (fn) {
      ev.preventDefault();
      fn(ev);
    }
  });
}

/** Arrow keys move focus between the cards of a container (buttons with .hand-card). */
export function attachArrowNav(container) {
  container.addEventListener("keydown", (ev) => {
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(ev.key)) return;
    const cards = [...container.querySelectorAll(".hand-card")];
    const i = cards.indexOf(document.activeElement);
    if (i < 0) return;
    ev.preventDefault();
    let j = i;
    if (ev.key === "ArrowLeft") j = Math.max(0, i - 1);
    if (ev.key === "ArrowRight") j = Math.min(cards.length - 1, i + 1);
    if (ev.key === "Home") j = 0;
    if (ev.key === "End") j = cards.length - 1;
    if (ev.key === "ArrowUp" || ev.key === "ArrowDown") {
      // the nearest card in the row above/below, by position
      const r = cards[i].getBoundingClientRect();
      const dir = ev.key === "ArrowUp" ? -1 : 1;
      let best = null;
      let bestD = Infinity;
      cards.forEach((c, k) => {
        const q = c.getBoundingClientRect();
        const dy = (q.top - r.top) * dir;
        if (dy < 10) return;
        const d = dy * 4 + Math.abs(q.left - r.left);
        if (d < bestD) {
          bestD = d;
          best = k;
        }
      });
      if (best !== null) j = best;
    }
    cards[j].focus();
  });
}

// --- drag and drop ----------------------------------------------------------------------

/**
 * Drag the selection from the hand onto a drop target (an element with data-drop).
 * opts.onStart(cardEl) -> label for the ghost or null to refuse; opts.onDrop(targetEl).
 * A press that does not move is left to the click handler (which toggles the selection).
 */
export function attachDrag(container, { onStart, onDrop, onHover }) {
  let drag = null;
  const THRESHOLD = 8;

  function dropTargetAt(x, y) {
    const el = document.elementFromPoint(x, y);
    return el ? el.closest("[data-drop]") : null;
  }

  container.addEventListener("pointerdown", (ev) => {
    const card = ev.target.closest(".hand-card");
    if (!card || (ev.pointerType === "mouse" && ev.button !== 0)) return;
    drag = { card, x: ev.clientX, y: ev.clientY, id: ev.pointerId, active: false, ghost: null, over: null };
  });

  document.addEventListener("pointermove", (ev) => {
    if (!drag || ev.pointerId !== drag.id) return;
    const dx = ev.clientX - drag.x;
    const dy = ev.clientY - drag.y;
    if (!drag.active) {
      if (Math.hypot(dx, dy) < THRESHOLD) return;
      const label = onStart(drag.card);
      if (label == null) {
        drag = null;
        return;
      }
      drag.active = true;
      const ghost = document.createElement("div");
      ghost.className = "drag-ghost";
      ghost.innerHTML = label;
      document.body.appendChild(ghost);
      drag.ghost = ghost;
      document.body.classList.add("dragging");
      try {
        drag.card.setPointerCapture?.(ev.pointerId);
      } catch {
        /* ignore */
      }
    }
    ev.preventDefault();
    drag.ghost.style.transform = `translate(${ev.clientX + 10}px, ${ev.clientY - 30}px)`;
    const over = dropTargetAt(ev.clientX, ev.clientY);
    if (over !== drag.over) {
      drag.over?.classList.remove("drop-over");
      over?.classList.add("drop-over");
      drag.over = over;
      onHover?.(over);
    }
  });

  function end(ev, cancelled) {
    if (!drag || ev.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    if (!d.active) return;
    d.ghost.remove();
    d.over?.classList.remove("drop-over");
    document.body.classList.remove("dragging");
    // swallow the click that follows a drag: only that one (a new press, however soon,
    // is a click of its own: a quick tap on "clear" after a refused drop must count)
    const swallow = (e) => {
      e.stopPropagation();
      e.preventDefault();
    };
    const forget = () => {
      window.removeEventListener("click", swallow, { capture: true });
      window.removeEventListener("pointerdown", forget, { capture: true });
    };
    window.addEventListener("click", swallow, { capture: true, once: true });
    window.addEventListener("pointerdown", forget, { capture: true, once: true });
    setTimeout(forget, 50);
    if (cancelled) return;
    const target = dropTargetAt(ev.clientX, ev.clientY);
    if (target) onDrop(target);
  }
  document.addEventListener("pointerup", (ev) => end(ev, false));
  document.addEventListener("pointercancel", (ev) => end(ev, true));
}
