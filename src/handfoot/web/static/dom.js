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
