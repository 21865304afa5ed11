// Cards drawn in SVG: index corners, suit shapes as paths (never font glyphs), wild cards,
// red and black 3s marked. Self-contained: the table and the replay viewer both import it.
//
//   cardSvg("KS", {width: 64, fourColour: false, selected: false})  -> "<svg ...>" string
//   cardBack({width: 64})                                            -> "<svg ...>" string
//   suitIcon("H", {size: 14})                                        -> small inline "<svg>"
//   parseCard("TD") -> {code, rank: "10", suit: "D", kind: "10", wild: false, ...}
//   cardLabel("2C") -> "two of clubs, wild"
//   sortHand(codes) -> codes grouped by kind: A K Q ... 4, then 2s, jokers, black 3s

export const RANK_ORDER = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"];
export const KIND_ORDER = [...RANK_ORDER, "2", "JK", "B3", "R3"];
const SUIT_ORDER = ["S", "H", "C", "D"];

const RANK_NAMES = {
  A: "ace", K: "king", Q: "queen", J: "jack", 10: "ten", 9: "nine", 8: "eight",
  7: "seven", 6: "six", 5: "five", 4: "four", 3: "three", 2: "two",
};
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

// Suit shapes in a 100 x 100 box.
const SUIT_PATHS = {
  H: "M50 92 C44 84 6 58 6 32 C6 14 20 6 31 6 C41 6 47 12 50 20 C53 12 59 6 69 6 " +
     "C80 6 94 14 94 32 C94 58 56 84 50 92 Z",
  D: "M50 4 C60 22 74 38 90 50 C74 62 60 78 50 96 C40 78 26 62 10 50 C26 38 40 22 50 4 Z",
  S: "M50 4 C56 16 94 38 94 62 C94 78 82 86 71 86 C62 86 56 82 53 76 " +
     "C54 86 58 92 66 96 L34 96 C42 92 46 86 47 76 C44 82 38 86 29 86 " +
     "C18 86 6 78 6 62 C6 38 44 16 50 4 Z",
  C: "M50 6 A20 20 0 0 1 68 36 A20 20 0 1 1 58 70 C58 82 62 90 68 96 L32 96 " +
     "C38 90 42 82 42 70 A20 20 0 1 1 32 36 A20 20 0 0 1 50 6 Z",
};
// A five-pointed star (jokers, wild marks) in a 100 x 100 box.
const STAR_PATH = "M50 4 L61 37 L96 37 L68 58 L79 92 L50 71 L21 92 L32 58 L4 37 L39 37 Z";
// "Block" sign for black 3s: a circle with a bar (drawn with a path too).
const BLOCK_PATH = "M50 8 A42 42 0 1 0 50.01 8 Z M50 22 A28 28 0 1 1 49.99 22 Z " +
                   "M24 44 L76 44 L76 56 L24 56 Z";

const COLOURS = {
  two: { S: "#1b1b1f", C: "#1b1b1f", H: "#c62828", D: "#c62828" },
  four: { S: "#1b1b1f", C: "#17803a", H: "#c62828", D: "#1f5fbf" },
};

export function parseCard(code) {
  const c = String(code).toUpperCase();
  if (c === "JK" || c === "JOKER") {
    return { code: "JK", rank: "JK", suit: null, kind: "JK", wild: true, joker: true };
  }
  let r = c.slice(0, -1);
  const suit = c.slice(-1);
  if (r === "T") r = "10";
  let kind = r;
  if (r === "3") kind = suit === "H" || suit === "D" ? "R3" : "B3";
  return { code: c, rank: r, suit, kind, wild: r === "2", joker: false };
}

/** The kind of a card as the view names kinds: kindOf("TD") -> "10", kindOf("3S") -> "B3". */
export function kindOf(code) {
  return parseCard(code).kind;
}

export function cardLabel(code) {
  const p = parseCard(code);
  if (p.joker) return "joker, wild";
  let text = `${RANK_NAMES[p.rank] || p.rank} of ${SUIT_NAMES[p.suit] || p.suit}`;
  if (p.wild) text += ", wild";
  if (p.kind === "R3") text += ", red three bonus";
  if (p.kind === "B3") text += ", black three, blocks the pile";
  return text;
}

/** Where a kind ("K", "10", "JK") comes in a sorted hand: A K Q ... 4, 2s, jokers, 3s. */
export function kindRankIndex(kind) {
  const i = KIND_ORDER.indexOf(kind);
  return i < 0 ? 99 : i;
}

export function sortHand(codes) {
  return [...codes].sort((a, b) => {
    const pa = parseCard(a);
    const pb = parseCard(b);
    const d = kindRankIndex(pa.kind) - kindRankIndex(pb.kind);
    if (d) return d;
    return SUIT_ORDER.indexOf(pa.suit) - SUIT_ORDER.indexOf(pb.suit);
  });
}

function suitColour(suit, fourColour) {
  return (fourColour ? COLOURS.four : COLOURS.two)[suit] || "#1b1b1f";
}

function shape(d, x, y, size, fill, extra = "") {
  const s = size / 100;
  return `<path d="${d}" fill="${fill}" transform="translate(${x} ${y}) scale(${s})"${extra}/>`;
}

export function suitIcon(suit, { size = 14, fourColour = false, title = null } = {}) {
  const label = title || SUIT_NAMES[suit] || suit;
  return `<svg class="suit-icon" width="${size}" height="${size}" viewBox="0 0 100 100" ` +
    `role="img" aria-label="${label}"><path d="${SUIT_PATHS[suit] || STAR_PATH}" ` +
    `fill="${suitColour(suit, fourColour)}"/></svg>`;
}

/** A small inline card chip for logs: rank text and suit shape. */
export function cardChip(code, { fourColour = false } = {}) {
  const p = parseCard(code);
  if (p.joker) {
    return `<span class="card-chip wild" aria-label="joker" style="color:#7a4bd0">` +
      `<svg class="suit-icon" width="12" height="12" viewBox="0 0 100 100" aria-hidden="true">` +
      `<path d="${STAR_PATH}" fill="#7a4bd0"/></svg>JK</span>`;
  }
  const colour = suitColour(p.suit, fourColour);
  return `<span class="card-chip${p.wild ? " wild" : ""}" aria-label="${cardLabel(code)}" ` +
    `style="color:${colour}">${p.rank}${suitIcon(p.suit, { size: 12, fourColour })}</span>`;
}

/**
 * One card face as an SVG string. Size by width (height is 1.4 x width).
 * Options: width, fourColour, selected, extraClass, label (aria-label; default cardLabel).
 */
export function cardSvg(code, opts = {}) {
  const { width = 64, fourColour = false, selected = false, extraClass = "" } = opts;
  const p = parseCard(code);
  const h = Math.round(width * 1.4);
  const label = opts.label ?? cardLabel(code);
  const colour = p.joker ? "#7a4bd0" : suitColour(p.suit, fourColour);
  const classes = ["card", `kind-${p.kind}`];
  if (p.wild) classes.push("wild");
  if (selected) classes.push("selected");
  if (extraClass) classes.push(extraClass);
  const parts = [];
  // face
  const bg = p.kind === "R3" ? "#fff4f2" : p.kind === "B3" ? "#f1f2f4" : "#fffdf8";
  parts.push(`<rect x="1.5" y="1.5" width="97" height="137" rx="8" fill="${bg}" ` +
    `stroke="${selected ? "#0b66d6" : "#8d8f96"}" stroke-width="${selected ? 4 : 1.5}"/>`);
  const rankText = p.joker ? "JK" : p.rank;
  const fs = rankText.length > 1 ? 26 : 30;
  const fontAttrs = `font-family="Liberation Sans, Arial, Helvetica, sans-serif" ` +
    `font-weight="700" fill="${colour}"`;
  // top-left index: rank and suit, big enough to read when fanned
  const idx = (t) => {
    const spacing = rankText.length > 1 ? ` textLength="34" lengthAdjust="spacingAndGlyphs"` : "";
    let s = `<text x="6" y="30" font-size="${fs}" ${fontAttrs}${spacing}>${t}</text>`;
    s += p.joker ? shape(STAR_PATH, 7, 36, 24, colour) : shape(SUIT_PATHS[p.suit], 7, 36, 24, colour);
    return s;
  };
  parts.push(`<g class="idx">${idx(rankText)}</g>`);
  if (!p.joker) parts.push(`<g transform="rotate(180 50 70)">${idx(rankText)}</g>`);
  // centre
  if (p.joker) {
    parts.push(shape(STAR_PATH, 27, 30, 46, colour));
    parts.push(`<text x="50" y="96" font-size="16" text-anchor="middle" ${fontAttrs}>JOKER</text>`);
  } else if (["J", "Q", "K"].includes(p.rank)) {
    parts.push(`<rect x="24" y="26" width="52" height="88" rx="4" fill="none" ` +
      `stroke="${colour}" stroke-width="2" opacity="0.55"/>`);
    parts.push(`<text x="50" y="78" font-size="40" text-anchor="middle" ${fontAttrs}>${p.rank}</text>`);
    parts.push(shape(SUIT_PATHS[p.suit], 38, 84, 24, colour));
  } else {
    parts.push(shape(SUIT_PATHS[p.suit], 27, 47, 46, colour));
  }
  // markers for special cards: a band with text (colour is never the only signal)
  if (p.wild) {
    // a gold band with a star, clear of the rotated index in the bottom-right corner
    const bx = p.joker ? 24 : 8;
    parts.push(`<rect x="${bx}" y="110" width="56" height="20" rx="10" fill="#f2c230" stroke="#8a6a00" stroke-width="1"/>`);
    parts.push(shape(STAR_PATH, bx + 4, 113, 14, "#5a4300"));
    parts.push(`<text x="${bx + 34}" y="125" font-size="13" text-anchor="middle" font-family="Liberation Sans, Arial, sans-serif" font-weight="700" fill="#3b2c00">WILD</text>`);
  } else if (p.kind === "R3") {
    parts.push(`<rect x="8" y="110" width="58" height="20" rx="10" fill="#c62828"/>`);
    parts.push(`<text x="37" y="125" font-size="13" text-anchor="middle" font-family="Liberation Sans, Arial, sans-serif" font-weight="700" fill="#fff">BONUS</text>`);
  } else if (p.kind === "B3") {
    parts.push(`<rect x="8" y="110" width="58" height="20" rx="10" fill="#2b2d33"/>`);
    parts.push(shape(BLOCK_PATH, 11, 113, 14, "#fff", ' fill-rule="evenodd"'));
    parts.push(`<text x="43" y="125" font-size="13" text-anchor="middle" font-family="Liberation Sans, Arial, sans-serif" font-weight="700" fill="#fff">BLOCK</text>`);
  }
  // label "" : the card sits in a labelled control (a hand card button), so the SVG is hidden
  const a11y = label === "" ? 'aria-hidden="true"' : `role="img" aria-label="${label}"`;
  return `<svg class="${classes.join(" ")}" width="${width}" height="${h}" viewBox="0 0 100 140" ` +
    `${a11y} focusable="false">${parts.join("")}</svg>`;
}

export function cardBack({ width = 64, label = "card, face down" } = {}) {
  const h = Math.round(width * 1.4);
  // no <defs>/ids: many backs share a page, and a hidden first definition would break the rest
  let lattice = "";
  for (let i = -120; i < 120; i += 14) {
    lattice += `M${8 + i} 8 L${8 + i + 124} 132 M${92 - i} 8 L${92 - i - 124} 132 `;
  }
  return `<svg class="card back" width="${width}" height="${h}" viewBox="0 0 100 140" ` +
    `${label === "" ? 'aria-hidden="true"' : `role="img" aria-label="${label}"`} focusable="false">` +
    `<rect x="1.5" y="1.5" width="97" height="137" rx="8" fill="#fff" stroke="#8d8f96" stroke-width="1.5"/>` +
    `<svg x="8" y="8" width="84" height="124" viewBox="8 8 84 124">` +
    `<rect x="8" y="8" width="84" height="124" fill="#24508f"/>` +
    `<path d="${lattice}" stroke="#3a6cb8" stroke-width="3" fill="none"/></svg>` +
    `<rect x="8" y="8" width="84" height="124" rx="5" fill="none" stroke="#f2c230" stroke-width="2"/>` +
    shape(STAR_PATH, 36, 56, 28, "#f2c230") +
    `</svg>`;
}
