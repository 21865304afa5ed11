// A small SVG line chart: cumulative scores per side over the rounds.
//
//   import {lineChart} from "/static/chart.js";
//   box.append(lineChart([{label: "You and North", values: [0, 620, 1450]},
//                         {label: "East and West", values: [0, 900, 1210]}],
//                        {title: "Scores after each round"}));
//
// x is the round (0 = before the first), y the total. Each line has its own colour, dash
// pattern and point shape, and the legend names it, so colour is never the only signal.
// The chart scales to its container's width (viewBox); text uses currentColor.

const SVG = "http://www.w3.org/2000/svg";
const COLOURS = ["#1f6140", "#b3261e", "#2456a6", "#8a6a12", "#6b3fa0", "#0f7c80", "#c2571a", "#444"];
const DASHES = ["", "7 4", "2 3", "10 3 2 3", "4 4", "1 2", "12 4", "6 2 2 2"];
const SHAPES = ["circle", "square", "diamond", "triangle"];

function node(tag, attrs = {}, text) {
  const n = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (text !== undefined) n.textContent = text;
  return n;
}

/** A "nice" tick step for a range: 1, 2 or 5 times a power of ten. */
function niceStep(span, ticks) {
  const raw = Math.max(span, 1) / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  const f = raw / power;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * power;
}

function formatNumber(n) {
  return Math.round(n).toLocaleString("en-US");
}

function marker(shape, x, y, r, colour) {
  switch (shape) {
    case "square":
      return node("rect", {x: x - r, y: y - r, width: 2 * r, height: 2 * r, fill: colour});
    case "diamond":
      return node("path", {d: `M${x} ${y - r * 1.3}L${x + r * 1.3} ${y}L${x} ${y + r * 1.3}L${x - r * 1.3} ${y}Z`, fill: colour});
    case "triangle":
      return node("path", {d: `M${x} ${y - r * 1.3}L${x + r * 1.2} ${y + r}L${x - r * 1.2} ${y + r}Z`, fill: colour});
    default:
      return node("circle", {cx: x, cy: y, r, fill: colour});
  }
}

/**
 * @param {{label: string, values: number[]}[]} series one entry per side
 * @param {{width?: number, height?: number, title?: string, xLabel?: (i: number) => string,
 *          colours?: string[]}} opts
 * @returns {SVGSVGElement}
 */
export function lineChart(series, opts = {}) {
  const width = opts.width || 360;
  const legendRows = Math.ceil(series.length / 2);
  const height = (opts.height || 200) + legendRows * 18;
  const colours = opts.colours || COLOURS;
  const title = opts.title || "Scores";
  const xLabel = opts.xLabel || ((i) => (i === 0 ? "start" : `R${i}`));
  const n = Math.max(1, ...series.map((s) => s.values.length));
  const all = series.flatMap((s) => s.values);
  let lo = Math.min(0, ...all);
  let hi = Math.max(0, ...all);
  if (lo === hi) hi = lo + 100;
  const step = niceStep(hi - lo, 4);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;

  const pad = {left: 8 + 7 * Math.max(formatNumber(lo).length, formatNumber(hi).length), right: 12 + 7 * Math.max(...all.map((v) => formatNumber(v).length), 1), top: 28, bottom: 24 + legendRows * 18};
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const x = (i) => pad.left + (n === 1 ? plotW / 2 : (i * plotW) / (n - 1));
  const y = (v) => pad.top + plotH - ((v - lo) / (hi - lo)) * plotH;

  const svg = node("svg", {viewBox: `0 0 ${width} ${height}`, class: "hf-chart", role: "img"});
  const titleId = `chart-${Math.random().toString(36).slice(2, 9)}`;
  svg.setAttribute("aria-labelledby", titleId);
  const summary = series.map((s) => `${s.label}: ${s.values.map(formatNumber).join(", ")}`).join("; ");
  svg.append(node("title", {id: titleId}, `${title}. ${summary}`));
  svg.append(node("text", {x: pad.left, y: 15, "font-weight": 700, "font-size": 13}, title));

  // Grid and y labels.
  for (let v = lo; v <= hi + step / 2; v += step) {
    svg.append(node("line", {x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: v === 0 ? "zero" : "grid"}));
    svg.append(node("text", {x: pad.left - 5, y: y(v) + 4, "text-anchor": "end"}, formatNumber(v)));
  }
  // x labels.
  for (let i = 0; i < n; i++) {
    svg.append(node("text", {x: x(i), y: pad.top + plotH + 15, "text-anchor": "middle"}, xLabel(i)));
  }
  // Lines, points and each line's last value.
  series.forEach((s, k) => {
    const colour = colours[k % colours.length];
    const points = s.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    const g = node("g", {class: "series"});
    g.append(node("polyline", {points, fill: "none", stroke: colour, "stroke-width": 2.5, "stroke-dasharray": DASHES[k % DASHES.length], "stroke-linejoin": "round", "stroke-linecap": "round"}));
    s.values.forEach((v, i) => {
      const m = marker(SHAPES[k % SHAPES.length], x(i), y(v), 3.6, colour);
      m.append(node("title", {}, `${s.label}, ${xLabel(i)}: ${formatNumber(v)}`));
      g.append(m);
    });
    svg.append(g);
  });
  // Each line's last value, beside its last point; labels pushed apart so none overlap.
  const ends = series.map((s, k) => ({k, v: s.values[s.values.length - 1], i: s.values.length - 1}))
    .filter((e) => e.i >= 0)
    .map((e) => ({...e, y: y(e.v) + 4}))
    .sort((a, b) => a.y - b.y);
  for (let j = 1; j < ends.length; j++) ends[j].y = Math.max(ends[j].y, ends[j - 1].y + 13);
  const overflow = ends.length ? ends[ends.length - 1].y - (pad.top + plotH + 4) : 0;
  if (overflow > 0) for (const e of ends) e.y -= overflow;
  for (const e of ends) {
    const lx = x(e.i);
    const right = lx + 8 + 7 * formatNumber(e.v).length < width;
    svg.append(node("text", {x: right ? lx + 8 : lx - 8, y: e.y, "text-anchor": right ? "start" : "end", "font-weight": 700, fill: colours[e.k % colours.length]}, formatNumber(e.v)));
  }
  // Legend: a sample of each line (with its dash and shape) and its label.
  const colW = (width - pad.left) / 2;
  series.forEach((s, k) => {
    const colour = colours[k % colours.length];
    const lx = pad.left + (k % 2) * colW;
    const ly = height - legendRows * 18 + Math.floor(k / 2) * 18 + 6;
    svg.append(node("line", {x1: lx, x2: lx + 26, y1: ly, y2: ly, stroke: colour, "stroke-width": 2.5, "stroke-dasharray": DASHES[k % DASHES.length]}));
    svg.append(marker(SHAPES[k % SHAPES.length], lx + 13, ly, 3.6, colour));
    svg.append(node("text", {x: lx + 32, y: ly + 4}, s.label));
  });
  return svg;
}
