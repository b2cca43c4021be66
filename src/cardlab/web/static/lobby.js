// The lobby: create a game (game, its options, who plays each seat), show the links, and list
// the games this browser created or visited (kept in localStorage) with their live status.

import { api, h, replace, SEATS, loadMyGames, saveMyGames, rememberGame, words } from "./common.js";

const $ = (id) => document.getElementById(id);

const CHARACTER_CHOICES = [
  ["random", "random"],
  ["GARU", "Garu (Guardian + Buddy Summoner)"],
  ["ACCELA", "Accela (Buddy Summoner + Wizard)"],
  ["RAIHA", "Raiha (Wizard + Guardian)"],
  ["VIRIDIAN", "Viridian (Guardian + Poison Bind)"],
  ["VERDI", "Verdi (Buddy Summoner + Poison Bind)"],
  ["EAGLE", "Eagle (Wizard + Poison Bind)"],
];
const LEADER_CHOICES = [
  ["", "deck default"],
  ["L01", "L01 Marshal Odette Renn"],
  ["L02", "L02 Warden-Seraph Calyx"],
  ["L03", "L03 Duke Morvane"],
  ["L04", "L04 Matriarch Greytusk"],
  ["L05", "L05 Foundry Mind KR-7"],
];

const DREADNOUGHT_DECKS = [
  ["ember_spark", "Ember & Spark (red + yellow)"],
  ["tide_grove", "Tide & Grove (blue + green)"],
];
// Caster pairs that fit the starter decks' conditions (D3.4); the server checks any choice.
const CASTER_CHOICES = [
  ["", "deck default"],
  ["X01+X03", "X01 Ignis Varga + X03 Oren Quill (red + yellow)"],
  ["X02+X03", "X02 Sable Kurenai + X03 Oren Quill (red + yellow)"],
  ["X04+X06", "X04 Mira Tidewell + X06 Fen Larkspur (blue + green)"],
  ["X04+X07", "X04 Mira Tidewell + X07 Tala Greenward (blue + green)"],
];

/** Per game: option fields and how they become the config JSON. */
const FORMS = {
  edelweiss: {
    fields: [
      {
        key: "deck",
        label: "Deck",
        metaKey: "deck",
        choices: [
          ["full", "full deck (52 cards)"],
          ["short", "short deck (36 cards)"],
          ["skills", "skills game (36 cards + characters)"],
        ],
      },
      { key: "standard", label: "Standard", metaKey: "standard", choices: [["symbolic", "Symbolic"], ["accel2", "Accel 2"]], when: (v) => v.deck === "skills" },
      { key: "character_P1", label: "P1 character", metaKey: "characters", choices: CHARACTER_CHOICES, when: (v) => v.deck === "skills", random: true },
      { key: "character_P2", label: "P2 character", metaKey: "characters", choices: CHARACTER_CHOICES, when: (v) => v.deck === "skills", random: true },
    ],
    build(v, preview = false) {
      const skills = v.deck === "skills";
      let characters = null;
      if (skills && (v.character_P1 !== "random" || v.character_P2 !== "random")) {
        // one side fixed, the other random: draw the random one here (the config names both or none)
        const ids = CHARACTER_CHOICES.map((c) => c[0]).filter((id) => id !== "random");
        const draw = () => (preview ? "<random>" : ids[Math.floor(Math.random() * ids.length)]);
        const pick = (value) => (value === "random" ? draw() : value);
        characters = { P1: pick(v.character_P1), P2: pick(v.character_P2) };
      }
      return { deck: v.deck, standard: skills ? v.standard || "symbolic" : null, characters };
    },
  },
  aterial: {
    fields: [
      { key: "deck_P1", label: "P1 deck", metaKey: "decks", choices: [["D1", "D1 Vanguard of Dawn"], ["D2", "D2 Ashfang Pack"]], initial: "D1" },
      { key: "deck_P2", label: "P2 deck", metaKey: "decks", choices: [["D1", "D1 Vanguard of Dawn"], ["D2", "D2 Ashfang Pack"]], initial: "D2" },
      { key: "leader_P1", label: "P1 leader", metaKey: "leaders", choices: LEADER_CHOICES, optional: true },
      { key: "leader_P2", label: "P2 leader", metaKey: "leaders", choices: LEADER_CHOICES, optional: true },
      { key: "first", label: "First player", metaKey: "first", choices: [["random", "random"], ["P1", "P1"], ["P2", "P2"]] },
    ],
    build(v) {
      return {
        decks: { P1: v.deck_P1 || "D1", P2: v.deck_P2 || "D2" },
        leaders: { P1: v.leader_P1 || null, P2: v.leader_P2 || null },
        first: v.first === "P1" || v.first === "P2" ? v.first : null,
        cards: null,
      };
    },
  },
  dreadnought: {
    fields: [
      { key: "deck_P1", label: "P1 deck", metaKey: "decks", choices: DREADNOUGHT_DECKS, initial: "ember_spark" },
      { key: "deck_P2", label: "P2 deck", metaKey: "decks", choices: DREADNOUGHT_DECKS, initial: "tide_grove" },
      { key: "casters_P1", label: "P1 casters", metaKey: "casters", choices: CASTER_CHOICES, optional: true },
      { key: "casters_P2", label: "P2 casters", metaKey: "casters", choices: CASTER_CHOICES, optional: true },
    ],
    build(v) {
      const pair = (value) => (value ? String(value).split("+") : null);
      return {
        decks: { P1: v.deck_P1 || "ember_spark", P2: v.deck_P2 || "tide_grove" },
        casters: { P1: pair(v.casters_P1), P2: pair(v.casters_P2) },
        cards: null,
      };
    },
  },
};

let meta = { games: {}, agents: [] };

/** Choices from /api/meta options when it lists plain values; else the built-in ones. */
function choicesFor(game, field) {
  const options = (meta.games[game] && meta.games[game].options) || {};
  let listed = options[field.metaKey];
  if (listed && !Array.isArray(listed) && typeof listed === "object") listed = listed.choices || listed.values || null;
  if (!Array.isArray(listed) || !listed.length || !listed.every((x) => typeof x === "string" || x === null)) return field.choices;
  const known = new Map(field.choices);
  const out = [];
  if (field.random) out.push(["random", "random"]);
  if (field.optional) out.push(["", known.get("") || "default"]);
  for (const value of listed) {
    if (value === null || value === "random" || value === "") continue;
    out.push([value, known.get(value) || value]);
  }
  for (const [value, label] of field.choices) if (!out.some((c) => c[0] === value) && (value === "random" || value === "")) out.push([value, label]);
  return out;
}

function currentGame() {
  return $("game").value;
}

function formValues() {
  const values = {};
  for (const node of $("options").querySelectorAll("[data-option]")) values[node.getAttribute("data-option")] = node.value;
  return values;
}

function buildConfig(preview = false) {
  const game = currentGame();
  const form = FORMS[game];
  const values = formValues();
  if (form) return form.build(values, preview);
  const configs = (meta.games[game] && meta.games[game].configs) || {};
  const name = values.config || Object.keys(configs)[0];
  return configs[name] !== undefined ? configs[name] : null;
}

function drawOptions() {
  const game = currentGame();
  const box = $("options");
  const previous = formValues();
  const form = FORMS[game];
  const rows = [h("legend", null, "Options")];
  if (form) {
    for (const field of form.fields) {
      const id = `opt-${field.key}`;
      const choices = choicesFor(game, field);
      const select = h(
        "select",
        { id, "data-option": field.key, onchange: refreshOptions },
        choices.map(([value, label]) => h("option", { value }, label)),
      );
      const wanted = previous[field.key] ?? field.initial;
      if (wanted !== undefined && choices.some((c) => c[0] === wanted)) select.value = wanted;
      rows.push(h("div", { class: "form-row", "data-field": field.key }, h("label", { for: id }, field.label), select));
    }
  } else {
    const configs = (meta.games[game] && meta.games[game].configs) || { default: null };
    rows.push(
      h(
        "div",
        { class: "form-row" },
        h("label", { for: "opt-config" }, "Configuration"),
        h(
          "select",
          { id: "opt-config", "data-option": "config", onchange: refreshOptions },
          Object.keys(configs).map((name) => h("option", { value: name }, name)),
        ),
      ),
    );
  }
  replace(box, rows);
  refreshOptions();
  const rules = $("game-rules");
  rules.href = `/rules/${encodeURIComponent(game)}`;
}

function refreshOptions() {
  const game = currentGame();
  const form = FORMS[game];
  const values = formValues();
  if (form) {
    for (const field of form.fields) {
      const row = $("options").querySelector(`[data-field="${field.key}"]`);
      if (row) row.hidden = field.when ? !field.when(values) : false;
    }
  }
  let preview;
  try {
    const config = buildConfig(true);
    preview = JSON.stringify(config, null, 1);
    if (form && game === "edelweiss" && config && config.characters && (values.character_P1 === "random" || values.character_P2 === "random")) {
      preview += "\n(the random character is drawn when the game is created)";
    }
  } catch (exc) {
    preview = String(exc);
  }
  $("config-json").textContent = preview;
}

function drawSeats() {
  // Each game lists the agents that can play it (the compiled search plays Edelweiss only).
  const info = meta.games && meta.games[currentGame()];
  const listed = info && Array.isArray(info.agents) ? info.agents : meta.agents;
  const agents = Array.isArray(listed) ? listed.filter((a) => typeof a === "string") : [];
  const chosen = Object.fromEntries(SEATS.map((seat) => [seat, $(`seat-${seat}`) ? $(`seat-${seat}`).value : null]));
  const box = $("seats");
  const rows = [h("legend", null, "Players")];
  for (const seat of SEATS) {
    const select = h(
      "select",
      { id: `seat-${seat}`, "data-seat": seat, onchange: () => toggleCustom(seat) },
      h("option", { value: "human" }, "human (play in the browser)"),
      agents.map((spec) => h("option", { value: spec }, `AI: ${spec}`)),
      h("option", { value: "__custom__" }, "AI: type a spec…"),
    );
    if (seat === "P2" && agents.length) select.value = agents.includes("heuristic") ? "heuristic" : agents[0];
    if (chosen[seat] && (chosen[seat] === "human" || agents.includes(chosen[seat]))) select.value = chosen[seat];
    const custom = h("input", {
      id: `seat-${seat}-custom`,
      type: "text",
      placeholder: "e.g. ismcts:iterations=400",
      hidden: true,
      "aria-label": `${seat} agent spec`,
    });
    rows.push(h("div", { class: "form-row" }, h("label", { for: `seat-${seat}` }, seat), select, custom));
  }
  replace(box, rows);
}

function toggleCustom(seat) {
  const custom = $(`seat-${seat}-custom`);
  custom.hidden = $(`seat-${seat}`).value !== "__custom__";
  if (!custom.hidden) custom.focus();
}

function seatSpecs() {
  const seats = {};
  for (const seat of SEATS) {
    const value = $(`seat-${seat}`).value;
    seats[seat] = value === "__custom__" ? $(`seat-${seat}-custom`).value.trim() : value;
    if (!seats[seat]) throw new Error(`type an agent spec for ${seat}`);
  }
  return seats;
}

function absolute(url) {
  try {
    return new URL(url, location.origin).href;
  } catch {
    return String(url);
  }
}

function linkRow(label, url, extra) {
  const full = absolute(url);
  return h(
    "li",
    null,
    h("span", { class: "link-label" }, label),
    h("a", { href: url, class: "game-link", "data-link": extra || label }, full),
    h(
      "button",
      {
        type: "button",
        class: "small-btn",
        title: "copy the link",
        onclick: (event) => {
          const button = event.currentTarget;
          if (navigator.clipboard) navigator.clipboard.writeText(full).then(() => (button.textContent = "copied"), () => {});
        },
      },
      "copy",
    ),
  );
}

async function createGame(event) {
  event.preventDefault();
  const error = $("form-error");
  error.hidden = true;
  const game = currentGame();
  let body;
  try {
    const seedText = $("seed").value.trim();
    body = { game, config: buildConfig(), seats: seatSpecs(), seed: seedText === "" ? null : Number(seedText) };
  } catch (exc) {
    error.textContent = exc.message;
    error.hidden = false;
    return;
  }
  $("create").disabled = true;
  try {
    const created = await api("/api/games", { method: "POST", body });
    const urls = (created && created.urls) || {};
    const title = (meta.games[game] && meta.games[game].title) || game;
    rememberGame({
      id: created.id,
      game,
      title,
      seats: body.seats,
      urls,
      spectator_url: created.spectator_url || `/play/${created.id}`,
      created: Date.now(),
    });
    const items = [];
    for (const seat of SEATS) {
      if (urls[seat]) items.push(linkRow(`${seat} (human)`, urls[seat], seat));
      else items.push(h("li", null, h("span", { class: "link-label" }, seat), `played by ${body.seats[seat]}`));
    }
    items.push(linkRow("Spectators", created.spectator_url || `/play/${created.id}`, "spectator"));
    items.push(linkRow("Replay", `/replay/${encodeURIComponent(created.id)}`, "replay"));
    const box = $("created");
    replace(
      box,
      h("h3", null, `Game ${created.id} created — ${title}`),
      h("p", { class: "muted" }, "Send each human player their own link; it carries that seat's secret token."),
      h("ul", { class: "links-list" }, items),
    );
    box.hidden = false;
    box.setAttribute("data-game-id", created.id);
    drawMyGames();
  } catch (exc) {
    const legal = exc.data && Array.isArray(exc.data.legal) ? ` (allowed: ${exc.data.legal.join(", ")})` : "";
    error.textContent = `Could not create the game: ${exc.message}${legal}`;
    error.hidden = false;
  } finally {
    $("create").disabled = false;
  }
}

function tokenOf(url) {
  try {
    return new URL(url, location.origin).searchParams.get("token") || "";
  } catch {
    return "";
  }
}

function forget(id) {
  saveMyGames(loadMyGames().filter((g) => g.id !== id));
  drawMyGames();
}

function statusText(view) {
  const obs = view.observation || {};
  if (view.status === "over" || view.result) {
    const r = view.result || {};
    return r.winner ? `over — ${r.winner} won${r.reason ? ` (${words(r.reason)})` : ""}` : "over — draw";
  }
  const parts = ["running"];
  if (obs.turn !== undefined && obs.turn !== null) parts.push(`turn ${obs.turn}`);
  if (obs.window) parts.push(words(obs.window));
  if (Array.isArray(view.legal) && view.legal.length) parts.push(`${view.seat}: your move!`);
  else if (obs.to_move) parts.push(`${obs.to_move} to act`);
  return parts.join(" · ");
}

function drawMyGames() {
  const list = loadMyGames();
  const box = $("my-games");
  if (!list.length) {
    replace(box, h("li", { class: "muted" }, "No games yet. Games you create or open appear here."));
    return;
  }
  replace(
    box,
    list.map((entry) => {
      const status = h("span", { class: "game-status", "data-status": "loading" }, "…");
      const urls = entry.urls && typeof entry.urls === "object" ? entry.urls : {};
      const links = [];
      for (const seat of SEATS) if (typeof urls[seat] === "string") links.push(h("a", { href: urls[seat], "data-link": seat }, `play ${seat}`));
      links.push(h("a", { href: entry.spectator_url || `/play/${encodeURIComponent(entry.id)}`, "data-link": "spectator" }, "watch"));
      links.push(h("a", { href: `/replay/${encodeURIComponent(entry.id)}`, "data-link": "replay" }, "replay"));
      if (entry.game) links.push(h("a", { href: `/rules/${encodeURIComponent(entry.game)}`, target: "_blank" }, "rules"));
      const seats = entry.seats && typeof entry.seats === "object" ? SEATS.map((s) => `${s}: ${entry.seats[s] || "?"}`).join(", ") : "";
      const item = h(
        "li",
        { "data-game-id": entry.id },
        h(
          "div",
          { class: "game-head" },
          h("b", null, entry.title || entry.game || "game"),
          h("code", null, entry.id),
          status,
          h("button", { type: "button", class: "small-btn", title: "remove from this list", onclick: () => forget(entry.id) }, "forget"),
        ),
        seats ? h("div", { class: "muted small" }, seats) : null,
        h("div", { class: "game-links" }, links),
      );
      const token = SEATS.map((s) => (typeof urls[s] === "string" ? tokenOf(urls[s]) : "")).find(Boolean) || "";
      api(`/api/games/${encodeURIComponent(entry.id)}${token ? `?token=${encodeURIComponent(token)}` : ""}`).then(
        (view) => {
          status.textContent = statusText(view || {});
          status.setAttribute("data-status", (view && view.status) || "unknown");
          if (view && Array.isArray(view.legal) && view.legal.length) item.classList.add("my-turn");
        },
        (exc) => {
          status.textContent = exc.status === 404 ? "gone (server restarted?)" : `unavailable: ${exc.message}`;
          status.setAttribute("data-status", "gone");
        },
      );
      return item;
    }),
  );
}

async function main() {
  drawMyGames();
  $("refresh-games").addEventListener("click", drawMyGames);
  $("new-game").addEventListener("submit", createGame);
  try {
    meta = (await api("/api/meta")) || meta;
    if (!meta.games || typeof meta.games !== "object") meta.games = {};
  } catch (exc) {
    const error = $("form-error");
    error.textContent = `Could not load /api/meta: ${exc.message}`;
    error.hidden = false;
  }
  const names = Object.keys(meta.games);
  if (!names.length) names.push("edelweiss", "aterial", "dreadnought");
  replace(
    $("game"),
    names.map((name) => h("option", { value: name }, (meta.games[name] && meta.games[name].title) || name)),
  );
  replace(
    $("rules-links"),
    names.map((name) => h("a", { href: `/rules/${encodeURIComponent(name)}` }, `Rules: ${(meta.games[name] && meta.games[name].title) || name}`)),
  );
  $("game").addEventListener("change", () => {
    drawOptions();
    drawSeats();
  });
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && names.includes(wanted)) $("game").value = wanted;
  drawSeats();
  drawOptions();
}

main();
