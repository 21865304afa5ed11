// Small DOM helpers shared by the site's pages (plain ES module, no build step).

/** An element: el("a", {class: "btn", href: "/", onclick: f, text: "Home"}, child, [more]).
 * Attributes that are undefined, null or false are left out; true sets an empty attribute;
 * "on…" keys add event listeners; children may be nodes, strings or arrays of them. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined && c !== false) node.append(c);
  }
  return node;
}

/** A rule parameter's field for the new-game and score-sheet forms, from the parameter's
 * description (key, type, label, text, choices, min, max) and the rule set's value, shown as
 * the default; null for lists and maps, which only a TOML file sets. ``onchange`` (optional)
 * is called when the field changes. */
export function paramField(p, value, onchange) {
  const id = `param-${p.key}`;
  const base = value === undefined || value === null ? "" : String(value);
  const label = p.label || p.key.replaceAll("_", " ");
  let input;
  if (p.type === "bool") {
    input = el("select", {id, "data-param": p.key, "data-type": "bool"},
      el("option", {value: "", text: base ? `as the rule set (${value ? "yes" : "no"})` : "as the rule set"}),
      el("option", {value: "true", text: "yes"}),
      el("option", {value: "false", text: "no"}));
  } else if (p.choices && p.choices.length) {
    input = el("select", {id, "data-param": p.key, "data-type": "str"},
      el("option", {value: "", text: base ? `as the rule set (${base})` : "as the rule set"}),
      ...p.choices.map((c) => el("option", {value: c, text: c})));
  } else if (p.type === "int") {
    input = el("input", {type: "number", id, "data-param": p.key, "data-type": p.type, inputmode: "numeric",
      min: p.min ?? null, max: p.max ?? null, placeholder: base});
  } else if (p.type === "opt_int") {
    // a number or a word ("all" cards of the pile, "none"): a text box, the server judges it
    const word = p.key === "pickup_count" ? "all" : "none";
    input = el("input", {type: "text", id, "data-param": p.key, "data-type": p.type, autocomplete: "off",
      spellcheck: "false", placeholder: base || word, "aria-describedby": `${id}-words`});
  } else {
    return null;
  }
  if (onchange) input.addEventListener("change", onchange);
  const words = p.type === "opt_int"
    ? el("span", {class: "hint", id: `${id}-words`, text: `a number, or "${p.key === "pickup_count" ? "all" : "none"}"`})
    : null;
  return el("div", {class: "field param"},
    el("label", {for: id}, label, el("span", {class: "hint", text: p.text || ""})),
    input, words);
}
