// Moves in the engine's notation, written from the cards the player chose (the page only
// writes the notation: what the move does and whether it is allowed is the server's word).
// Kinds are written as the view names them ("10", "B3", "JK"), which the notation reads.
//
//   groupText(["KS", "2C", "KD"])       -> "K K 2"
//   addGroupText("K", ["2C"])           -> "K: 2"      (onto the side's meld of kings)
//   addGroupText("wild", ["2C", "JK"])  -> "2 JK"      (onto the all-wild meld)
//   goOutText([["9S", "9D", "9C"]], ["7H"]) -> "goout 9 9 9 discard 7"

import { kindOf, kindRankIndex } from "./cards.js";

/** The kinds of some cards, in the hand's order: ["K", "K", "2"]. */
function kindsOf(codes) {
  return codes.map(kindOf).sort((a, b) => kindRankIndex(a) - kindRankIndex(b));
}

/** One meld group: "K K 2". */
export function groupText(codes) {
  return kindsOf(codes).join(" ");
}

/** A group for the side's meld of `target` (a meld's `target` in the view: a kind, or
 * "wild" for the all-wild meld): "K: K 2", "K: 2 2", "2 JK". */
export function addGroupText(target, codes) {
  const kinds = kindsOf(codes).join(" ");
  return target === "wild" ? kinds : `${target}: ${kinds}`;
}

function joinGroups(groups) {
  return groups.filter((g) => g && g.trim()).join(" | ");
}

/** Several groups melded at once: "meld K K K | 9 9 2". */
export function meldText(groups) {
  return `meld ${joinGroups(groups.map(groupText))}`;
}

/** A pickup: the selected hand cards go with the top card (their group first), then the
 * staged groups. */
export function pickupText(selCodes, trayGroups) {
  const groups = [];
  if (selCodes.length) groups.push(groupText(selCodes));
  for (const g of trayGroups) groups.push(groupText(g));
  return `pickup ${joinGroups(groups)}`.trim();
}

/** Going out: the staged groups, the selection as one more group or (one card) the discard. */
export function goOutText(trayGroups, selCodes) {
  const groups = trayGroups.map(groupText);
  let discard = null;
  if (selCodes.length === 1) discard = kindOf(selCodes[0]);
  else if (selCodes.length > 1) groups.push(groupText(selCodes));
  let text = `goout ${joinGroups(groups)}`.trim();
  if (discard) text += ` discard ${discard}`;
  return text;
}
