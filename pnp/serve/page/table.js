// The table view: a deck shuffled with a seed, dealt, drawn and discarded, with the card
// pictures the preview draws; beside it the exact odds the server works out (GET /api/odds,
// the code of `pnp odds`). Nothing here changes a file: counts typed in are tried only.
"use strict";
// $ and element() are dom.js's.

let snapshot = null;     // the game's data and picture keys, from /api/state
let deckId = null;
let counts = [];         // the counts tried, per distinct card (start: the data's)
let rng = null;          // the shuffle's random numbers, from the seed
let pile = [];           // card indices, top first
let discards = [];
let hands = [];

// mulberry32: a small seeded generator, so one seed always gives the same shuffle
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Fisher-Yates from the last card down: the order a seed gives
function shuffled(items) {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function deck() {
  return snapshot ? snapshot.decks.find((d) => d.id === deckId) : null;
}

// A name for each card as `pnp odds --count` takes it: its label, "RUN (2)" for the second RUN
function cardKeys(cards) {
  const seen = {};
  return cards.map((card) => {
    seen[card.label] = (seen[card.label] || 0) + 1;
    return seen[card.label] === 1 ? card.label : `${card.label} (${seen[card.label]})`;
  });
}

function shuffle() {
  const seed = Number($("seed").value) >>> 0;
  $("seed").value = seed;
  rng = seeded(seed);
  const physical = [];
  counts.forEach((count, index) => { for (let i = 0; i < count; i++) physical.push(index); });
  pile = shuffled(physical);
  discards = [];
  hands = [];
  $("status").textContent = `shuffled with seed ${seed}`;
  drawTable();
}

function deal() {
  const players = Math.max(1, Number($("players").value) || 1);
  const size = Math.max(1, Number($("hand-size").value) || 1);
  for (const hand of hands) discards.push(...hand);
  hands = Array.from({ length: players }, () => []);
  for (let round = 0; round < size; round++) {
    for (const hand of hands) if (pile.length) hand.push(pile.shift());
  }
  drawTable();
}

function draw() {
  if (!pile.length) return;
  if (!hands.length) hands = [[]];
  hands[0].push(pile.shift());
  drawTable();
}

function discard(player, position) {
  discards.push(...hands[player].splice(position, 1));
  drawTable();
}

function reshuffleDiscards() {
  if (!rng) rng = seeded(Number($("seed").value) >>> 0);
  pile = pile.concat(shuffled(discards));   // under the cards still in the pile
  discards = [];
  drawTable();
}

function picture(index, extra = {}) {
  const card = deck().cards[index];
  return element("img", { src: `/img/${card.face}.png`, alt: card.label, title: card.label, ...extra });
}

function drawTable() {
  const current = deck();
  if (!current) return;
  $("draw-count").textContent = `${pile.length} cards`;
  $("discard-count").textContent = `${discards.length} cards`;
  const back = current.cards[0] && current.cards[0].back;
  $("draw-pile").replaceChildren(...(pile.length && back ? [element("img", { src: `/img/${back}.png`, alt: "the pile" })] : []));
  $("discards").replaceChildren(...(discards.length ? [picture(discards[discards.length - 1], { "data-card": discards[discards.length - 1] })] : []));
  $("hands").replaceChildren(...hands.map((hand, player) => element("div", { class: "hand", "data-player": player + 1 },
    element("h2", {}, `Player ${player + 1} `, element("small", { text: `${hand.length} cards` })),
    element("div", { class: "cards" }, ...hand.map((index, position) => element("button", {
      class: "table-card", type: "button", "data-card": index, "data-label": current.cards[index].label,
      title: `${current.cards[index].label}: click to discard`, onclick: () => discard(player, position),
    }, picture(index)))))));
  const total = counts.reduce((a, b) => a + b, 0);
  $("pile-count").textContent = `${total} cards`;
}

function fieldNames() {
  const current = deck();
  return current && current.cards.length ? Object.keys(current.cards[0].fields) : [];
}

function numericFields() {
  const current = deck();
  return fieldNames().filter((name) => current.cards.some((card) => typeof card.fields[name] === "number"));
}

function fillSelect(select, names, blank) {
  const kept = select.value;
  select.replaceChildren(...(blank ? [element("option", { value: "", text: blank })] : []),
    ...names.map((name) => element("option", { value: name, text: name })));
  if ([...select.options].some((o) => o.value === kept)) select.value = kept;
}

function drawCounts() {
  const current = deck();
  const keys = cardKeys(current.cards);
  $("counts").replaceChildren(...current.cards.map((card, index) => {
    const input = element("input", { type: "number", min: "0", max: "1000", value: counts[index], "data-card": index,
      "aria-label": `count of ${keys[index]}` });
    input.addEventListener("input", () => {
      counts[index] = Math.max(0, Number(input.value) || 0);
      row.classList.toggle("tried", counts[index] !== card.count);
      drawTable();
      odds();
    });
    const row = element("tr", { class: counts[index] !== card.count ? "tried" : "" },
      element("td", { text: keys[index] }), element("td", {}, input), element("td", { class: "muted", text: `data: ${card.count}` }));
    return row;
  }));
}

function percent(p) {
  const value = p * 100;
  return p > 0 && value < 0.01 ? "<0.01 %" : `${value.toFixed(2)} %`;
}

let asked = 0;
async function odds() {
  const current = deck();
  if (!current) return;
  const query = new URLSearchParams({ deck: current.id, hand: $("odds-hand").value });
  const condition = $("odds-field").value && $("odds-value").value.trim()
    ? `${$("odds-field").value}${$("odds-op").value}${$("odds-value").value.trim()}` : "";
  if (condition) { query.append("where", condition); query.append("at_least", $("odds-k").value || "0"); }
  if ($("odds-sum").value) query.append("sum", $("odds-sum").value);
  const keys = cardKeys(current.cards);
  const asData = query.toString();   // the same question with the data's counts, to compare
  current.cards.forEach((card, index) => { if (counts[index] !== card.count) query.append("count", `${keys[index]}=${counts[index]}`); });
  const mine = ++asked;
  const response = await fetch(`/api/odds?${query}`, { cache: "no-store" });
  let before = null;
  if (response.ok && asData !== query.toString()) {
    const data = await fetch(`/api/odds?${asData}`, { cache: "no-store" });
    if (data.ok) before = await data.json();
  }
  if (mine !== asked) return;   // a later question was asked meanwhile
  if (!response.ok) {
    $("odds-chance").textContent = await response.text();
    $("odds-chance").dataset.chance = "";
    $("odds-table").replaceChildren();
    $("sum-table").replaceChildren();
    return;
  }
  const result = await response.json();
  if (condition) {
    $("odds-chance").textContent = `P(at least ${result.at_least_k} with ${condition} in ${result.hand}) = ${percent(result.chance)}` +
      ` · ${result.matching} of ${result.total} cards` +
      (before && before.chance !== null ? ` (with the data's counts: ${percent(before.chance)})` : "");
    $("odds-chance").dataset.chance = String(result.chance);
    const shown = Math.min(result.hand, result.matching);
    $("odds-table").replaceChildren(element("tr", {}, element("th", { text: "cards" }), element("th", { text: "exactly" }), element("th", { text: "at least" })),
      ...result.exactly.slice(0, shown + 1).map((p, k) => element("tr", {}, element("td", { text: k }),
        element("td", { text: percent(p) }), element("td", { text: percent(result.at_least[k]) }))));
  } else {
    $("odds-chance").textContent = `${result.total} cards; choose a field and a value for the chance of a match`;
    $("odds-chance").dataset.chance = "";
    $("odds-table").replaceChildren();
  }
  if (result.sums) {
    let rest = 1;
    $("sum-table").replaceChildren(element("tr", {}, element("th", { text: `sum of ${result.field}` }), element("th", { text: "exactly" }), element("th", { text: "at least" })),
      ...result.sums.map(([value, p]) => { const row = element("tr", {}, element("td", { text: value }), element("td", { text: percent(p) }), element("td", { text: percent(Math.max(rest, 0)) })); rest -= p; return row; }),
      element("tr", {}, element("td", { text: "mean" }), element("td", { text: result.mean.toFixed(2) }), element("td")));
  } else {
    $("sum-table").replaceChildren();
  }
}

function chooseDeck(id, keepCounts = false) {
  deckId = id;
  const current = deck();
  if (!keepCounts || counts.length !== current.cards.length) counts = current.cards.map((card) => card.count);
  fillSelect($("odds-field"), fieldNames(), "(field)");
  fillSelect($("odds-sum"), numericFields(), "(no sum)");
  drawCounts();
  if (!keepCounts) shuffle(); else drawTable();
  odds();
}

async function load() {
  const response = await fetch("/api/state", { cache: "no-store" });
  const state = await response.json();
  $("error").hidden = !state.error;
  $("error-text").textContent = state.error ? state.error.text : "";
  if (!state.snapshot) return;
  const first = snapshot === null;
  snapshot = state.snapshot;
  document.title = `${snapshot.title} — pnp table`;
  $("title").textContent = `${snapshot.title} — table`;
  fillSelect($("deck"), snapshot.decks.map((d) => d.id));
  if (!snapshot.decks.length) return;
  if (first || !deck()) chooseDeck(new URLSearchParams(location.search).get("deck") || snapshot.decks[0].id);
  else chooseDeck(deckId, true);   // an edit: new pictures and counts, the table as it was
  if (!deck()) chooseDeck(snapshot.decks[0].id);
  $("status").textContent = `seed ${$("seed").value} · version ${state.version}`;
  $("status").dataset.version = state.version;
}

$("deck").addEventListener("change", () => chooseDeck($("deck").value));
$("shuffle").addEventListener("click", shuffle);
$("new-seed").addEventListener("click", () => { $("seed").value = Math.floor(Math.random() * 4294967296); shuffle(); });
$("deal").addEventListener("click", deal);
$("draw").addEventListener("click", draw);
$("reshuffle").addEventListener("click", reshuffleDiscards);
$("reset-counts").addEventListener("click", () => { counts = deck().cards.map((c) => c.count); drawCounts(); drawTable(); odds(); });
for (const id of ["odds-hand", "odds-k", "odds-field", "odds-op", "odds-value", "odds-sum"]) {
  $(id).addEventListener("input", odds);
  $(id).addEventListener("change", odds);
}
document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
  const action = { s: shuffle, d: deal, n: draw, r: reshuffleDiscards }[event.key.toLowerCase()];
  if (action) { event.preventDefault(); action(); }
});
const events = new EventSource("/events");
events.addEventListener("change", () => load().catch(() => {}));
events.onopen = () => load().catch(() => {});
