// What every page of the preview builds its nodes with (index.html and table.html load this
// before their own script): the element of an id, and a new element in one call.
"use strict";

const $ = (id) => document.getElementById(id);

// element("a", { class: "nav", text: "Table", onclick: go }, child, …): `class` and `text` set
// those properties, `on…` adds a listener, anything else is an attribute; empty children are skipped.
function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}
