// The pnp preview page: draws the state the server publishes and follows its changes.
// Pictures are named by the hash of what they were drawn from, so after an edit only the
// cards that changed get a new address and only those are fetched.
"use strict";
// $ and element() are dom.js's.

let state = null;        // the last state the server sent
let shownCard = null;    // "deck/index" of the card in the dialog
// This session's token, put in the page by the server: every request that changes anything
// sends it in the X-Pnp-Token header (see serve/server.py, changes_allowed).
const TOKEN = document.querySelector("meta[name=pnp-token]").content;

// A request that changes something on the server: JSON, with the session token.
function change(path, value) {
  return fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json", "X-Pnp-Token": TOKEN },
    body: JSON.stringify(value),
  });
}

function choices() {
  return { paper: $("paper").value, ink: $("ink").checked ? "1" : "", lang: $("lang").value };
}

// A piece picture with its trim, bleed and safe-zone guides. The picture includes the bleed.
function piece(deck, key, label) {
  const [w, h] = deck.size_mm, b = deck.bleed_mm, s = deck.safe_mm;
  const W = w + 2 * b, H = h + 2 * b;
  const inset = (x, y) => `${(y / H) * 100}% ${(x / W) * 100}%`;
  const box = element("div", { class: "piece" });
  box.style.setProperty("--trim-clip", `inset(${inset(b, b)})`);
  box.append(element("img", { src: `/img/${key}.png`, alt: label, "data-key": key }));
  const guide = (kind, margin) => {
    const g = element("div", { class: `guide ${kind}` });
    g.style.left = g.style.right = `${(margin / W) * 100}%`;
    g.style.top = g.style.bottom = `${(margin / H) * 100}%`;
    return g;
  };
  box.append(guide("trim", b), guide("safe", b + s), element("div", { class: "guide bleed" }));
  return box;
}

function side() {
  return document.querySelector("input[name=side]:checked").value;
}

function drawDeck(deck) {
  const grid = element("div", { class: "grid" });
  deck.cards.forEach((card, index) => {
    const key = side() === "back" && card.back ? card.back : card.face;
    const button = element("button", {
      class: "card" + (card.warnings.length ? " has-warning" : ""), type: "button",
      "data-card": `${deck.id}/${index}`, title: `${card.label} — ${card.source}`,
      onclick: () => openCard(`${deck.id}/${index}`),
    });
    if (card.count > 1) button.append(element("span", { class: "badge", text: `×${card.count}` }));
    if (card.warnings.length) button.append(element("span", { class: "badge warning", text: "!" }));
    button.append(piece(deck, key, card.label), element("span", { class: "label", text: card.label }));
    grid.append(button);
  });
  const total = deck.cards.reduce((sum, card) => sum + card.count, 0);
  return element("section", { class: "deck", id: `deck-${deck.id}` },
    element("h2", {}, deck.title + " ", element("small", { text: `${deck.cards.length} different, ${total} cards` })),
    grid);
}

// A board's or sheet's pages; with --edit each has an "Edit layout" button (edit.js), page N
// showing the component's card N.
function drawPages(component) {
  const grid = element("div", { class: "grid" });
  component.pictures.forEach((key, index) => {
    const picture = element("a", { href: `/img/${key}.png`, target: "_blank" },
      element("img", { src: `/img/${key}.png`, alt: `${component.title}, page ${index + 1}` }));
    if (!state.editing || !component.layout) return grid.append(picture);
    grid.append(element("div", { class: "page" }, picture, element("button", {
      type: "button", class: "edit-page", "data-component": component.id, "data-card": index,
      title: `edit ${component.layout}`, text: "Edit layout" })));
  });
  return element("section", { class: "pages", id: `pages-${component.id}` },
    element("h2", {}, component.title + " ", element("small", { text: `${component.pictures.length} page(s)` })), grid);
}

function findCard(ref) {
  const [deckId, index] = ref.split("/");
  const deck = state.snapshot.decks.find((d) => d.id === deckId);
  return deck ? [deck, deck.cards[Number(index)]] : [null, null];
}

function openCard(ref) {
  const [deck, card] = findCard(ref);
  if (!card) return;
  shownCard = ref;
  const key = side() === "back" && card.back ? card.back : card.face;
  $("dialog-picture").replaceChildren(piece(deck, key, card.label));
  $("dialog-title").textContent = `${card.label}${card.count > 1 ? ` ×${card.count}` : ""}`;
  $("dialog-source").textContent = card.source;
  $("dialog-fields").replaceChildren(...Object.entries(card.fields).map(([name, value]) =>
    element("tr", {}, element("td", { text: name }),
      element("td", { text: value === null ? "—" : typeof value === "object" ? JSON.stringify(value) : String(value) }))));
  $("dialog-warnings").replaceChildren(...card.warnings.map((w) => element("li", { text: w })));
  $("dialog-edit").hidden = !state.editing;
  if (!$("card-dialog").open) $("card-dialog").showModal();
}

function draw() {
  const { snapshot, error } = state;
  $("error").hidden = !error;
  $("error-text").textContent = error ? error.text : "";
  document.body.classList.toggle("has-error", Boolean(error));
  if (!snapshot) {
    $("pieces").replaceChildren(element("p", { class: "empty", text: error ? "Nothing to show yet." : "Drawing…" }));
    return;
  }
  $("title").textContent = `${snapshot.title} — pnp preview`;
  document.title = `${snapshot.title} — pnp preview`;
  // Redraw only the sections whose data changed: the rest keep their nodes (and focus).
  const wanted = [...snapshot.decks.map((d) => ["deck", d]), ...snapshot.pages.map((p) => ["pages", p])];
  const sections = wanted.map(([kind, data]) => {
    const id = `${kind}-${data.id}`, look = side() + JSON.stringify(data);
    const old = document.getElementById(id);
    if (old && old.dataset.look === look) return old;
    const section = kind === "deck" ? drawDeck(data) : drawPages(data);
    section.dataset.look = look;
    return section;
  });
  if (sections.some((section, i) => $("pieces").children[i] !== section) || $("pieces").children.length !== sections.length) {
    $("pieces").replaceChildren(...sections);
  }
  $("problems").hidden = snapshot.problems.length === 0;
  $("problem-list").replaceChildren(...snapshot.problems.map((p) => element("li", { text: p })));
  $("warning-count").textContent = snapshot.warnings.length;
  $("warning-list").replaceChildren(...snapshot.warnings.map((w) => element("li", {},
    w.card ? element("a", { text: w.message, onclick: () => openCard(w.card) }) : element("span", { text: w.message }))));
  if (shownCard && $("card-dialog").open) openCard(shownCard);
}

async function load() {
  const query = new URLSearchParams(choices());
  const response = await fetch(`/api/state?${query}`, { cache: "no-store" });
  state = await response.json();
  languages((state.snapshot || {}).languages || []);
  draw();
  $("status").textContent = `live · version ${state.version}`;
  $("status").dataset.version = state.version;
}

// The language switch lists the game's translations once the server has told them.
function languages(codes) {
  const select = $("lang");
  const have = [...select.options].map((option) => option.value).filter(Boolean);
  if (have.join() === codes.join()) return;
  select.replaceChildren(select.options[0], ...codes.map((code) => element("option", { value: code, text: code })));
  select.hidden = codes.length === 0;
}

function follow() {
  const events = new EventSource("/events");
  events.addEventListener("change", () => load().catch(() => {}));
  events.onerror = () => { $("status").textContent = "reconnecting…"; };
  events.onopen = () => load().catch(() => {});
}

async function build() {
  const button = $("build");
  button.disabled = true;
  $("downloads").hidden = false;
  $("downloads").textContent = "Building…";
  try {
    // "game's paper" is the empty choice: sent as null, the build takes the game's own.
    const response = await change("/api/build", { paper: $("paper").value || null, duplex: $("duplex").value,
      bleed: Number($("bleed").value) || 0, ink_saver: $("ink").checked, lang: $("lang").value || null });
    if (!response.ok) {
      $("downloads").replaceChildren(element("strong", { text: "Not built: " }), await response.text());
      return;
    }
    const result = await response.json();
    if (result.error) {
      $("downloads").replaceChildren(element("strong", { text: "Not built: " }), result.error.text);
    } else {
      $("downloads").replaceChildren(element("strong", { text: "Built: " }), ...result.files.map((f) =>
        element("a", { href: f.url, download: f.name, style: "margin-right:1em" }, `${f.name}`)));
    }
  } finally {
    button.disabled = false;
  }
}

for (const [box, css] of [["guide-trim", "show-trim"], ["guide-bleed", "show-bleed"], ["guide-safe", "show-safe"]]) {
  $(box).addEventListener("change", () => document.body.classList.toggle(css, $(box).checked));
}
document.querySelectorAll("input[name=side]").forEach((radio) => radio.addEventListener("change", () => state && draw()));
$("paper").addEventListener("change", () => load());
$("ink").addEventListener("change", () => load());
$("lang").addEventListener("change", () => load());
$("build").addEventListener("click", build);
$("warnings-toggle").addEventListener("click", () => { $("warnings").hidden = !$("warnings").hidden; });
follow();
