// The lobby: create a game (game, its options, who plays each seat), show the links, and list
// the games this browser created or visited (kept in localStorage) with their live status.

import { api, h, replace, SEATS, loadMyGames, saveMyGames, rememberGame, words, reasonWords, setReasons } from "./common.js";

const $ = (id) => document.getElementById(id);

let meta = { games: {}, agents: [] };

/** The game's options as /api/meta declares them (each game declares its own, once, in Python). */
function optionsOf(game) {
  const listed = meta.games[game] && meta.games[game].options;
  return Array.isArray(listed) ? listed.filter((o) => o && typeof o.name === "string") : [];
}

/** The form fields of one option: one per seat for a per-seat option. */
function fieldsOf(option) {
  return option.per_seat ? SEATS.map((seat) => ({ key: `${option.name}_${seat}`, seat })) : [{ key: option.name, seat: null }];
}

function choicesOf(option) {
  const out = [];
  if (option.random_choice) out.push(["random", "random"]);
  if (option.optional) out.push(["", "default"]);
  for (const choice of option.choices || []) if (Array.isArray(choice)) out.push([String(choice[0]), String(choice[1])]);
  return out;
}

function initialOf(option, seat) {
  if (option.default === null || option.default === undefined) return undefined;
  const parts = String(option.default).split(",");
  return seat === "P2" && parts.length > 1 ? parts[1] : parts[0];
}

function currentGame() {
  return $("game").value;
}

/** The rule variants the game declares (`cardlab rules GAME`), each with its default and values. */
function rulesOf(game) {
  const listed = meta.games[game] && meta.games[game].rules;
  return Array.isArray(listed) ? listed : [];
}

/** The rule values that differ from the defaults: what the new game is played under. */
function buildRules() {
  const rules = {};
  for (const rule of rulesOf(currentGame())) {
    const node = $("options").querySelector(`[data-rule="${rule.name}"]`);
    if (node && node.value !== rule.default) rules[rule.name] = node.value;
  }
  return rules;
}

function formValues() {
  const values = {};
  for (const node of $("options").querySelectorAll("[data-option]")) values[node.getAttribute("data-option")] = node.value;
  for (const node of $("options").querySelectorAll("[data-rule]")) values[`rule:${node.getAttribute("data-game")}:${node.getAttribute("data-rule")}`] = node.value;
  return values;
}

function shown(option, values) {
  if (!Array.isArray(option.shown_when)) return true;
  const [other, allowed] = option.shown_when;
  return Array.isArray(allowed) && allowed.includes(values[other]);
}

/** The option values the server builds the game from; hidden options are left to the game's defaults. */
function buildOptions() {
  const values = formValues();
  const options = {};
  for (const option of optionsOf(currentGame())) {
    if (!shown(option, values)) continue;
    if (option.per_seat) options[option.name] = Object.fromEntries(SEATS.map((seat) => [seat, values[`${option.name}_${seat}`] ?? ""]));
    else options[option.name] = values[option.name] === "" ? null : values[option.name];
  }
  return options;
}

function drawOptions() {
  const game = currentGame();
  const box = $("options");
  const previous = formValues();
  const rows = [h("legend", null, "Options")];
  for (const option of optionsOf(game)) {
    const choices = choicesOf(option);
    for (const field of fieldsOf(option)) {
      const id = `opt-${field.key}`;
      const select = h(
        "select",
        { id, "data-option": field.key, title: option.help || "", onchange: refreshOptions },
        choices.map(([value, label]) => h("option", { value }, label)),
      );
      const wanted = previous[field.key] ?? initialOf(option, field.seat);
      if (wanted !== undefined && choices.some((c) => c[0] === wanted)) select.value = wanted;
      const label = `${field.seat ? `${field.seat} ` : ""}${words(option.name)}`;
      rows.push(h("div", { class: "form-row", "data-field": field.key, "data-name": option.name }, h("label", { for: id }, label), select));
    }
  }
  if (rows.length === 1) rows.push(h("p", { class: "muted" }, "This game has no options."));
  const variants = rulesOf(game);
  if (variants.length) {
    // Rule variants are a designer's levers: folded away, each value in the game's own words (the spec's ruling first).
    const fold = h(
      "details",
      { class: "advanced-rules" },
      h("summary", null, "Advanced rules ", h("span", { class: "muted small" }, "(the spec's ruling is the default)")),
    );
    for (const rule of variants) {
      const id = `rule-${rule.name}`;
      const said = rule.value_words && typeof rule.value_words === "object" ? rule.value_words : {};
      const text = (value) => (typeof said[value] === "string" ? said[value] : words(value));
      const select = h(
        "select",
        { id, "data-rule": rule.name, "data-game": game, title: `${rule.rule}: ${rule.description}`, onchange: refreshOptions },
        rule.values.map((value) => h("option", { value, title: value }, value === rule.default ? `${text(value)} (default)` : text(value))),
      );
      select.value = previous[`rule:${game}:${rule.name}`] ?? rule.default; // a variant never carries to another game
      fold.append(
        h(
          "div",
          { class: "form-row", "data-field": id },
          h("label", { for: id, title: rule.description }, `${words(rule.name)} (${rule.rule})`),
          select,
        ),
      );
    }
    rows.push(fold);
  }
  replace(box, rows);
  refreshOptions();
  const rules = $("game-rules");
  rules.href = `/rules/${encodeURIComponent(game)}`;
}

function refreshOptions() {
  const values = formValues();
  for (const option of optionsOf(currentGame())) {
    for (const row of $("options").querySelectorAll(`[data-name="${option.name}"]`)) row.hidden = !shown(option, values);
  }
  const options = buildOptions();
  const rules = buildRules();
  let preview = JSON.stringify(Object.keys(rules).length ? { ...options, rules } : options, null, 1);
  if (Object.values(options).some((v) => v === "random" || (v && typeof v === "object" && Object.values(v).includes("random")))) {
    preview += "\n(random choices are drawn when the game is created)";
  }
  $("config-json").textContent = preview;
}

function drawSeats() {
  // Each game lists the agents that can play it (the compiled search exists for some games only).
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
      agents.map((spec) => h("option", { value: spec, title: spec }, agentWords(spec))),
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
  for (const seat of SEATS) showSpec(seat);
}

/** An agent by its strength in words, as /api/meta says it (the spec itself is the option's tooltip). */
function agentWords(spec) {
  const info = meta.games && meta.games[currentGame()];
  const said = info && info.agent_words && typeof info.agent_words === "object" ? info.agent_words[spec] : null;
  return typeof said === "string" ? said : `AI: ${spec}`;
}

/** The chosen agent's spec as the seat field's tooltip: what "strong (search)" runs. */
function showSpec(seat) {
  const select = $(`seat-${seat}`);
  select.title = select.value === "human" || select.value === "__custom__" ? "" : select.value;
}

function toggleCustom(seat) {
  showSpec(seat);
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
    body = { game, options: buildOptions(), rules: buildRules(), seats: seatSpecs(), seed: seedText === "" ? null : Number(seedText) };
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
    const humans = SEATS.filter((seat) => urls[seat]);
    if (humans.length === 1) {
      // one human seat: its player is the creator; take them to it (the game stays under "My games")
      location.href = urls[humans[0]];
      return;
    }
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
    setReasons(meta.games[view.game] && meta.games[view.game].reasons); // this game's words for why it ended
    const why = reasonWords(r);
    return r.winner ? `over — ${r.winner} won${why ? `: ${why}` : ""}` : `over — draw${why ? `: ${why}` : ""}`;
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
      item.refresh = () => loadStatus(entry.id, token, item, status);
      item.refresh();
      return item;
    }),
  );
}

/** One game's status line, from the view its first seat link (or a spectator) gets now. */
function loadStatus(id, token, item, status) {
  return api(`/api/games/${encodeURIComponent(id)}${token ? `?token=${encodeURIComponent(token)}` : ""}`).then(
    (view) => {
      status.textContent = statusText(view || {});
      status.setAttribute("data-status", (view && view.status) || "unknown");
      item.classList.toggle("my-turn", !!(view && Array.isArray(view.legal) && view.legal.length));
    },
    (exc) => {
      status.textContent = exc.status === 404 ? "gone (server restarted?)" : `unavailable: ${exc.message}`;
      status.setAttribute("data-status", "gone");
    },
  );
}

const STATUS_REFRESH_MS = 5000;

/** Games still running are asked again every few seconds while the page is shown, so that a game that
 * moved on or ended while the lobby stayed open (or came back from the browser's history) says so. */
function refreshStatuses() {
  if (document.hidden) return;
  for (const item of document.querySelectorAll("#my-games > li[data-game-id]")) {
    const status = item.querySelector(".game-status");
    if (item.refresh && status && status.getAttribute("data-status") === "running") item.refresh();
  }
}

async function main() {
  $("refresh-games").addEventListener("click", drawMyGames);
  setInterval(refreshStatuses, STATUS_REFRESH_MS);
  window.addEventListener("pageshow", (event) => event.persisted && drawMyGames()); // back from a game: the page was kept as it was
  document.addEventListener("visibilitychange", refreshStatuses);
  $("new-game").addEventListener("submit", createGame);
  try {
    meta = (await api("/api/meta")) || meta;
    if (!meta.games || typeof meta.games !== "object") meta.games = {};
  } catch (exc) {
    const error = $("form-error");
    error.textContent = `Could not load /api/meta: ${exc.message}`;
    error.hidden = false;
  }
  drawMyGames(); // after /api/meta: a finished game says why in its game's words
  const names = Object.keys(meta.games);
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
