// The layout editor of `pnp serve --edit`: select the elements of a piece (a card, a board, a
// sheet's page), drag, resize, nudge and retype them; every change is checked by the server as
// a build would and saved to the layout file that defines the element. Lengths are kept in mm
// here and written back in the unit the layout already uses for that key.
"use strict";

const edit = {
  info: null,          // the server's answer: the piece's layout, its elements, file digests
  ref: null,           // {component, card, side}: a deck's card, or a board's or sheet's page
  selected: null,      // element index
  hover: null,
  undo: [], redo: [],
  drag: null,          // {mode, startX, startY, box, moved}
  picture: null,       // the piece as the server last drew it (a data URL)
  previewing: false, previewAgain: false,
  nudge: null,         // {timer, before}
  queue: Promise.resolve(),   // saves, one at a time
};
const SNAP_PX = 6;     // pointer distance within which an edge snaps to a guide

// Pixels per mm: a card fits 460 x 560 px; a wide board takes the width the window has.
function editScale() {
  const [w, h] = edit.info.size_mm, b = edit.info.bleed_mm;
  const width = Math.max(460, Math.min(window.innerWidth * 0.94 - 400, 1400));
  return Math.min(width / (w + 2 * b), 560 / (h + 2 * b), 8);
}

async function openEditor(componentId, cardIndex, side) {
  edit.ref = { component: componentId, card: cardIndex, side };
  edit.undo = []; edit.redo = []; edit.selected = null; edit.picture = null; edit.info = null;
  await loadElements();
  if (!$("edit-dialog").open) $("edit-dialog").showModal();
  $("edit-stage").focus();
}

// The piece's elements and the piece drawn as the files now are (on opening, and after a file
// changed on disk).
async function loadElements() {
  const query = new URLSearchParams({ ...edit.ref, picture: "1" });
  const response = await fetch(`/api/edit/elements?${query}`, { cache: "no-store" });
  const answer = await response.json();
  if (answer.error) return say(answer.error.text, true);
  edit.info = answer;
  edit.picture = `data:image/png;base64,${answer.picture}`;
  drawStage();
  drawPanel();
}

function say(text, bad = false) {
  $("edit-status").textContent = text;
  $("edit-status").classList.toggle("bad", bad);
}

// --- the stage: the card picture with an outline per element --------------------------------
function drawStage() {
  const info = edit.info, s = editScale(), b = info.bleed_mm;
  const [w, h] = info.size_mm;
  const stage = $("edit-stage");
  stage.style.width = `${(w + 2 * b) * s}px`;
  stage.style.height = `${(h + 2 * b) * s}px`;
  const boxes = info.elements.map((el) => {
    const node = element("div", { class: "edit-box", "data-index": el.index, "data-id": el.id || "", title: describe(el) });
    place(node, el.box);
    if (el.index === edit.selected) {
      node.classList.add("selected");
      node.append(element("div", { class: "edit-handle", "data-handle": "resize", title: "drag to resize" }));
    }
    if (el.index === edit.hover) node.classList.add("hover");
    return node;
  });
  const trim = element("div", { class: "edit-trim" });
  place(trim, { x: 0, y: 0, w, h });
  const safe = element("div", { class: "edit-safe" });
  place(safe, { x: info.safe_mm, y: info.safe_mm, w: w - 2 * info.safe_mm, h: h - 2 * info.safe_mm });
  stage.replaceChildren(element("img", { src: edit.picture, alt: "the piece", draggable: "false" }), trim, safe, ...boxes);
}

function place(node, box) {
  const s = editScale(), b = edit.info.bleed_mm;
  node.style.left = `${(box.x + b) * s}px`;
  node.style.top = `${(box.y + b) * s}px`;
  node.style.width = `${Math.max(box.w * s, 2)}px`;
  node.style.height = `${Math.max(box.h * s, 2)}px`;
}

function describe(el) {
  return `${el.id || el.kind} (${el.kind}) — ${el.file}:${el.line}${el.inherited ? `, from ${el.layout}` : ""}`;
}

function elementAt(event) {
  const s = editScale(), b = edit.info.bleed_mm, rect = $("edit-stage").getBoundingClientRect();
  const x = (event.clientX - rect.left) / s - b, y = (event.clientY - rect.top) / s - b;
  const under = edit.info.elements.filter((el) => x >= el.box.x - 0.5 && x <= el.box.x + el.box.w + 0.5 &&
    y >= el.box.y - 0.5 && y <= el.box.y + el.box.h + 0.5);
  // The smallest box under the pointer, the last drawn of equal ones: a repeat or a table
  // spans the whole board by default and would otherwise hide what lies under it.
  let best = null;
  for (const el of under) if (!best || el.box.w * el.box.h <= best.box.w * best.box.h) best = el;
  return best ? best.index : null;
}

function current() {
  return edit.info.elements.find((el) => el.index === edit.selected) || null;
}

function select(index) {
  edit.selected = index;
  drawStage();
  drawPanel();
}

// --- snapping and units ----------------------------------------------------------------------
function guides(axis, except) {
  const info = edit.info, size = axis === "x" ? info.size_mm[0] : info.size_mm[1];
  const lines = [0, size, info.safe_mm, size - info.safe_mm, size / 2];
  for (const el of info.elements) {
    if (el.index === except) continue;
    const start = el.box[axis], length = axis === "x" ? el.box.w : el.box.h;
    if (length >= (axis === "x" ? info.size_mm[0] : info.size_mm[1]) - 0.01 && start <= 0.01) continue;   // full-card boxes add nothing
    lines.push(start, start + length, start + length / 2);
  }
  return lines;
}

function gridStep(el) {
  const unit = (el.units && (el.units.x || el.units.w)) || "mm";
  return { mm: 0.5, cm: 1, in: 25.4 / 16, pt: 25.4 / 72, "%": null }[unit] || 0.5;
}

// The offset that brings one of `edges` onto a guide, or onto the grid.
function snapped(edges, lines, step, limit) {
  let best = null;
  for (const edge of edges) {
    for (const line of lines) {
      const d = line - edge;
      if (Math.abs(d) <= limit && (best === null || Math.abs(d) < Math.abs(best))) best = d;
    }
  }
  if (best !== null) return best;
  return step ? Math.round(edges[0] / step) * step - edges[0] : 0;
}

function written(el, key, valueMm) {
  const info = edit.info, unit = (el.units && (el.units[key] || el.units.x || el.units.w)) || "mm";
  const whole = key === "x" || key === "w" ? info.size_mm[0] : info.size_mm[1];
  const round = (v, places) => String(Number(v.toFixed(places)));
  switch (unit) {
    case "cm": return `${round(valueMm / 10, 3)}cm`;
    case "in": return `${round(valueMm / 25.4, 4)}in`;
    case "pt": return `${round(valueMm * 72 / 25.4, 2)}pt`;
    case "%": return `${round(valueMm / whole * 100, 2)}%`;
    default: return `${round(valueMm, 2)}mm`;
  }
}

function boxChanges(el, box, resized) {
  const changes = {};
  if (el.settings.inset !== undefined) changes.inset = null;   // an inset box gets its own place
  const keys = resized || el.settings.inset !== undefined ? ["x", "y", "w", "h"] : ["x", "y"];
  for (const key of keys) {
    if (key === "h" && el.kind === "line" && el.box.h === 0) continue;
    changes[key] = written(el, key, box[key]);
  }
  return changes;
}

// --- pointer and keys ------------------------------------------------------------------------
$("edit-stage").addEventListener("mousedown", (event) => {
  if (!edit.info) return;
  const handle = event.target.dataset && event.target.dataset.handle;
  const index = handle ? edit.selected : elementAt(event);
  if (index === null) return;
  if (index !== edit.selected) select(index);
  const el = current();
  edit.drag = { mode: handle ? "resize" : "move", startX: event.clientX, startY: event.clientY,
    box: { ...el.box }, moved: false };
  event.preventDefault();
});

window.addEventListener("mousemove", (event) => {
  if (!edit.info || !$("edit-dialog").open) return;
  if (!edit.drag) {
    const index = event.target.closest && event.target.closest("#edit-stage") ? elementAt(event) : null;
    if (index !== edit.hover) {
      edit.hover = index;
      for (const node of $("edit-stage").querySelectorAll(".edit-box")) {
        node.classList.toggle("hover", Number(node.dataset.index) === index);
      }
    }
    return;
  }
  const s = editScale(), el = current(), start = edit.drag.box;
  const dx = (event.clientX - edit.drag.startX) / s, dy = (event.clientY - edit.drag.startY) / s;
  if (Math.abs(dx) + Math.abs(dy) < 0.2) return;
  edit.drag.moved = true;
  // Alt held: the grid only, no guides (to place something just off an edge)
  const limit = event.altKey ? 0 : SNAP_PX / s, step = gridStep(el), box = { ...start };
  if (edit.drag.mode === "move") {
    box.x = start.x + dx; box.y = start.y + dy;
    box.x += snapped([box.x, box.x + box.w / 2, box.x + box.w], guides("x", el.index), step, limit);
    box.y += snapped([box.y, box.y + box.h / 2, box.y + box.h], guides("y", el.index), step, limit);
  } else {
    box.w = Math.max(1, start.w + dx); box.h = el.kind === "line" ? start.h : Math.max(1, start.h + dy);
    box.w += snapped([box.x + box.w], guides("x", el.index), step, limit);
    if (el.kind !== "line") box.h += snapped([box.y + box.h], guides("y", el.index), step, limit);
  }
  edit.drag.current = box;
  const node = $("edit-stage").querySelector(`.edit-box[data-index="${el.index}"]`);
  if (node) place(node, box);
  showPosition(el, box);
  livePreview(el, boxChanges(el, box, edit.drag.mode === "resize"));
});

window.addEventListener("mouseup", () => {
  const drag = edit.drag;
  edit.drag = null;
  if (!drag || !drag.moved || !drag.current) return;
  const el = current();
  send(el, boxChanges(el, drag.current, drag.mode === "resize"));
});

$("edit-stage").addEventListener("keydown", (event) => {
  if (!edit.info) return;
  const order = edit.info.elements.map((el) => el.index);
  if (event.key === "Tab") {
    event.preventDefault();
    const at = order.indexOf(edit.selected);
    const next = at < 0 ? (event.shiftKey ? order.length - 1 : 0) : (at + (event.shiftKey ? -1 : 1) + order.length) % order.length;
    return select(order[next]);
  }
  const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (arrows[event.key] && edit.selected !== null) {
    event.preventDefault();
    const el = current(), step = event.shiftKey ? 5 : 0.5, [sx, sy] = arrows[event.key];
    if (!edit.nudge) edit.nudge = { before: { ...el.box }, box: { ...el.box } };
    edit.nudge.box.x += sx * step; edit.nudge.box.y += sy * step;
    const node = $("edit-stage").querySelector(`.edit-box[data-index="${el.index}"]`);
    if (node) place(node, edit.nudge.box);
    showPosition(el, edit.nudge.box);
    clearTimeout(edit.nudge.timer);
    edit.nudge.timer = setTimeout(() => {   // a run of key presses is one change
      const box = edit.nudge.box;
      edit.nudge = null;
      send(el, boxChanges(el, box, false));
    }, 350);
  }
});

$("edit-dialog").addEventListener("keydown", (event) => {
  if (!(event.ctrlKey || event.metaKey) || event.target.closest("#edit-form")) return;
  if (event.key.toLowerCase() === "z") { event.preventDefault(); return event.shiftKey ? redo() : undo(); }
  if (event.key.toLowerCase() === "y") { event.preventDefault(); return redo(); }
});

// --- the side panel --------------------------------------------------------------------------
const PANEL_KEYS = {
  text: ["text", "font", "size", "colour", "align", "valign"],
  box: ["fill", "stroke"], ellipse: ["fill", "stroke"], line: ["stroke"],
};

function drawPanel() {
  const el = current(), info = edit.info;
  $("edit-title").textContent = el ? `${el.id || "(no id)"} · ${el.kind}` : `${info.label} in ${info.layout} — choose an element`;
  $("edit-where").textContent = el ? `${el.file}:${el.line}` : "";
  const form = $("edit-form");
  form.replaceChildren();
  $("edit-inherited").hidden = !el || !el.inherited;
  if (!el) return;
  if (el.inherited) {
    $("edit-inherited").textContent = `Inherited from ${el.layout} (extends).`;
    const choose = element("fieldset", { class: "edit-target" }, element("legend", { text: "Save changes to" }));
    const options = [["defining", `${el.layout} (every layout that extends it)`, el.writable],
      ["override", `an override in ${info.layout}`, info.own_writable && Boolean(el.id)]];
    for (const [value, label, allowed] of options) {
      const radio = element("input", { type: "radio", name: "edit-target", value });
      radio.disabled = !allowed;
      radio.checked = value === (el.writable ? "defining" : "override");
      choose.append(element("label", {}, radio, ` ${label}`));
    }
    form.append(choose);
  }
  const lists = { font: info.fonts, colour: info.palette, fill: info.palette, stroke: info.palette };
  const keys = [...(PANEL_KEYS[el.kind] || []), "x", "y", "w", "h", "when"];
  for (const key of keys) {
    let value = el.settings[key];
    if (value === undefined && ["x", "y", "w", "h"].includes(key)) value = written(el, key, el.box[key]);
    const input = key === "align" || key === "valign"
      ? element("select", { name: key }, ...(key === "align" ? ["", "left", "center", "right"] : ["", "top", "middle", "bottom"])
        .map((option) => element("option", { value: option, text: option || "—" })))
      : element(key === "text" ? "textarea" : "input", { name: key, rows: "2" });
    input.value = value === undefined ? "" : String(value);
    if (lists[key]) {
      input.setAttribute("list", `edit-list-${key}`);
      form.append(element("datalist", { id: `edit-list-${key}` }, ...lists[key].map((name) => element("option", { value: name }))));
    }
    input.addEventListener("change", () => {
      const changed = input.value === "" ? null : (key === "size" && input.value.trim() !== "" && !isNaN(Number(input.value)) ? Number(input.value) : input.value);
      send(el, { [key]: changed }, () => { input.value = value === undefined ? "" : String(value); });
    });
    form.append(element("label", { class: "edit-field" }, element("span", { text: key }), input));
  }
}

function showPosition(el, box) {
  for (const key of ["x", "y", "w", "h"]) {
    const input = $("edit-form").querySelector(`[name=${key}]`);
    if (input) input.value = written(el, key, box[key]);
  }
}

function target(el) {
  const chosen = $("edit-form").querySelector("input[name=edit-target]:checked");
  return el.inherited && chosen ? chosen.value : "defining";
}

// --- talking to the server -------------------------------------------------------------------
function request(el, changes, where) {
  return { ...edit.ref, index: el.index, target: where, changes, files: edit.info.files };
}

async function post(url, body) {
  const response = await change(url, body);   // app.js: JSON with the session token
  return [response.status, await response.json()];
}

async function livePreview(el, changes) {
  if (edit.previewing) { edit.previewAgain = [el, changes]; return; }
  edit.previewing = true;
  try {
    const [, answer] = await post("/api/edit/preview", request(el, changes, target(el)));
    if (answer.picture && edit.drag) {
      $("edit-stage").querySelector("img").src = `data:image/png;base64,${answer.picture}`;
    }
  } finally {
    edit.previewing = false;
    const again = edit.previewAgain;
    edit.previewAgain = false;
    if (again && edit.drag) livePreview(...again);
  }
}

// Save a change; `undone` is called when the server refuses it. Changes are sent one after
// another, each with the file digests the one before it left.
function send(el, changes, undone, record = true) {
  return queued(() => sendNow(el.index, changes, undone, record));
}

async function sendNow(index, changes, undone, record) {
  const el = edit.info.elements.find((e) => e.index === index);
  const before = {};
  for (const key of Object.keys(changes)) {
    before[key] = el.settings[key] === undefined ? null : el.settings[key];
  }
  const where = target(el);
  say("saving…");
  const [status, answer] = await post("/api/edit", request(el, changes, where));
  if (answer.error) {
    if (undone) undone();
    if (status === 409) await loadElements();
    else drawStage();
    say(answer.error.text, true);
    return false;
  }
  edit.info = answer;
  edit.picture = `data:image/png;base64,${answer.picture}`;
  if (record) {
    edit.undo.push({ index: el.index, before, after: changes, where: where === "override" ? "defining" : where });
    edit.redo = [];
  }
  drawStage();
  drawPanel();
  updateHistory();
  say(`saved to ${where === "override" ? edit.info.layout : el.file}`);
  return true;
}

// Undo and redo wait for any save still under way, so they take back the latest change.
function undo() { return queued(() => stepThrough(edit.undo, edit.redo, "before")); }
function redo() { return queued(() => stepThrough(edit.redo, edit.undo, "after")); }

function queued(work) {
  const next = edit.queue.then(work);
  edit.queue = next.catch(() => false);
  return next;
}

async function stepThrough(from, to, side) {
  const step = from.pop();
  if (!step) return;
  if (await sendNow(step.index, step[side], null, false)) to.push(step); else from.push(step);
  updateHistory();
}

function updateHistory() {
  $("edit-undo").disabled = edit.undo.length === 0;
  $("edit-redo").disabled = edit.redo.length === 0;
}

$("edit-undo").addEventListener("click", undo);
$("edit-redo").addEventListener("click", redo);
$("dialog-edit").addEventListener("click", () => {
  const [deckId, index] = shownCard.split("/");
  $("card-dialog").close();
  openEditor(deckId, Number(index), side()).catch((error) => say(String(error), true));
});
// A board's or a sheet's page: its "Edit layout" button (app.js, drawPages) names the page.
$("pieces").addEventListener("click", (event) => {
  const button = event.target.closest("button.edit-page");
  if (!button) return;
  openEditor(button.dataset.component, Number(button.dataset.card), "front").catch((error) => say(String(error), true));
});
