// Soukoku no Aterial board renderer.
// render(view, container, onAction, tools): both 2x3 fields, the viewer's at the bottom (spectators see
// P1 at the bottom); for P2 the columns are mirrored (2,1,0) so each player sees the board from
// their own side. Squares carry data-square="P1:F0"; squares, hand cards and buttons that stand
// for a legal action carry data-action with the exact action string; a hand card that is not asks the
// server why it cannot be played (tools.explain). Card faces show the server's words for the card.
// Accepts the observation shape (effective attack/hp on units, deck_size, hand null when hidden)
// and the full position shape (deck list, hands shown) used by finished replays.

import { h, replace, other, seatLabel, words, cardEntry, cardText, cardInfoButton, shortName, cardSpoken, zoneAttrs, settle } from "../common.js";

// Cards are described by the server in a player's words (view.cards: name, stats, abilities, keywords).

/** A number from a card's stats line ("cost 1 · ATK 1 · HP 2 · ...": stat("ATK") -> 1), or null. */
function stat(entry, label) {
  const match = entry ? new RegExp(`\\b${label} (\\d+)`).exec(String(entry.stats)) : null;
  return match ? Number(match[1]) : null;
}

const isLeaderCard = (id, entry) => (entry ? String(entry.stats).startsWith("leader") : String(id).startsWith("L"));

/** The stats a hand card is chosen by, short enough for its face. */
function handStats(entry) {
  return String(entry.stats).replace(/^leader · /, "").replace("dominance", "dom");
}

const WINDOW_NAMES = {
  mulligan: "mulligan",
  move: "move phase",
  move_to: "move phase: destination",
  action: "action phase",
  deploy_to: "action phase: deploy where?",
  ability_target: "action phase: ability target",
  trigger_target: "trigger target",
  attack: "attack phase",
  attack_target: "attack phase: target",
  block: "block decision",
  discard: "hand limit discard",
  over: "game over",
};

export function windowName(window) {
  return WINDOW_NAMES[window] || words(window);
}

/** "S06 Militia Pikeman (P1:F0)": the unit on a square, by name, for an option that names the square. */
function unitOn(view, square) {
  const obs = (view && view.observation) || {};
  const [seat, name] = square.includes(":") ? square.split(":") : [view && view.seat, square];
  const unit = seat && obs.players && obs.players[seat] && obs.players[seat].field ? obs.players[seat].field[name] : null;
  if (!unit || !unit.card) return square;
  const entry = cardEntry(unit.card);
  return `${entry ? entry.name : unit.card} (${square})`;
}

const cardName = (id) => (cardEntry(id) ? cardEntry(id).name : id);

export function actionLabel(action, view) {
  const parts = String(action).split(" ");
  const [verb, a, b] = parts;
  switch (verb) {
    case "KEEP":
      return "Keep hand";
    case "MULLIGAN":
      return "Mulligan";
    case "MOVE":
      return `Move ${unitOn(view, a)}`;
    case "TO":
      return `To ${a}`;
    case "END_MOVE":
      return "End move phase";
    case "DEPLOY":
      return `Deploy ${cardName(a)}`;
    case "ACTIVATE":
      return `${unitOn(view, a)}: ${words(b)}`;
    case "HAND":
      return `${cardName(a)}: ${words(b)} (from hand)`;
    case "END_ACTION":
      return "End action phase";
    case "ATTACK":
      return `Attack with ${unitOn(view, a)}`;
    case "TARGET":
      return `Target ${unitOn(view, a)}`;
    case "END_ATTACK":
      return "End attack phase";
    case "BLOCK":
      return "Block";
    case "NO_BLOCK":
      return "Don't block";
    case "DISCARD":
      return `Discard ${cardName(a)}`;
    default:
      return String(action);
  }
}

const SQUARE_VERBS = ["TO", "TARGET", "MOVE", "ATTACK", "ACTIVATE"];
const HAND_VERBS = ["DISCARD", "DEPLOY", "HAND"];

/** Map squares ("P1:F0") and hand card ids to one action each, when unambiguous. */
function clickTargets(legal, me) {
  const squares = new Map();
  const hand = new Map();
  const put = (map, key, verb, action) => {
    if (!map.has(key)) map.set(key, new Map());
    const byVerb = map.get(key);
    if (!byVerb.has(verb)) byVerb.set(verb, []);
    byVerb.get(verb).push(action);
  };
  for (const action of legal) {
    const [verb, a] = String(action).split(" ");
    if (!a) continue;
    if (verb === "TARGET") put(squares, a.includes(":") ? a : `${me}:${a}`, verb, action);
    else if (SQUARE_VERBS.includes(verb)) put(squares, `${me}:${a}`, verb, action);
    else if (HAND_VERBS.includes(verb)) put(hand, a, verb, action);
  }
  const pick = (map, order) => {
    const out = new Map();
    for (const [key, byVerb] of map) {
      for (const verb of order) {
        const actions = byVerb.get(verb);
        if (!actions) continue;
        if (actions.length === 1) out.set(key, actions[0]);
        break;
      }
    }
    return out;
  };
  return { squares: pick(squares, SQUARE_VERBS), hand: pick(hand, HAND_VERBS) };
}

function clickable(attrs, action, ctx) {
  if (!action || !ctx.onAction) return attrs;
  attrs.class += " clickable";
  attrs["data-action"] = action;
  attrs.role = "button";
  attrs.tabindex = "0";
  if (attrs["aria-label"]) attrs["aria-description"] = attrs["aria-label"]; // what stands there, in words
  attrs["aria-label"] = actionLabel(action, ctx.view);
  attrs.onclick = () => ctx.onAction(action);
  attrs.onkeydown = (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      ctx.onAction(action);
    }
  };
  return attrs;
}

/** A hand card the player cannot play now: a click asks the server why (e.g. its cost is above the
 * dominance of every free square, A11.3). */
function explainable(attrs, action, ctx) {
  if (!ctx.explain || !ctx.onAction) return attrs;
  attrs.class += " inert";
  attrs["data-explain"] = action;
  attrs.role = "button";
  attrs.tabindex = "0";
  attrs["aria-description"] = attrs["aria-label"];
  attrs["aria-label"] = `${cardName(String(action).split(" ")[1])}: cannot be deployed now, ask why`;
  attrs.onclick = () => ctx.explain(action);
  attrs.onkeydown = (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      ctx.explain(action);
    }
  };
  return attrs;
}

/** A unit on the field in words: its card, what it does, its attack and HP now, damage and what it did this turn. */
function unitSaid(unit) {
  const entry = cardEntry(unit.card);
  const leader = unit.hp === undefined && isLeaderCard(unit.card, entry);
  const printed = stat(entry, "ATK");
  const attack = Number.isFinite(unit.attack) ? unit.attack : printed !== null ? printed + (unit.attack_bonus || 0) : "?";
  const parts = [`${leader ? "leader " : ""}${cardSpoken(unit.card)}`];
  parts.push(`now ATK ${attack}${printed !== null && attack !== printed ? ` (printed ${printed})` : ""}`);
  const hp = Number.isFinite(unit.hp) ? unit.hp : leader ? null : stat(entry, "HP");
  const damage = Number(unit.damage) || 0;
  if (hp !== null && hp !== undefined) parts.push(`HP ${hp - damage} of ${hp}${damage ? `, ${damage} damage` : ""}`);
  if (unit.ready === false) parts.push("has acted this turn");
  if (unit.moves) parts.push("moved");
  if (unit.devoured) parts.push("devoured");
  return parts.join("; ");
}

// A highlighted square's part in the decision, in words (not only its border's colour).
const MARKS = { pending: "chosen", attacking: "attacks", targeted: "target" };

/** A stat as it stands now; when an aura, kinship or boost changed it, marked "changed" with the printed
 * value struck through beside it (A4.6): "ATK 3 ~~2~~". */
function changedStat(cls, label, now, printed, title) {
  const changed = printed !== null && Number.isFinite(now) && now !== printed;
  return h(
    "span",
    { class: `${cls}${changed ? ` changed ${now > printed ? "up" : "down"}` : ""}`, title: changed ? `printed ${label} ${printed}` : title },
    h("span", { class: "now" }, `${label} ${now}`),
    changed ? h("s", { class: "printed", "aria-label": `printed ${printed}` }, String(printed)) : null,
  );
}

function unitNode(unit) {
  const entry = cardEntry(unit.card);
  const leader = unit.hp === undefined && isLeaderCard(unit.card, entry);
  const printed = stat(entry, "ATK");
  const attack = Number.isFinite(unit.attack) ? unit.attack : printed !== null ? printed + (unit.attack_bonus || 0) : "?";
  const hp = Number.isFinite(unit.hp) ? unit.hp : leader ? null : stat(entry, "HP");
  const damage = Number(unit.damage) || 0;
  const acted = unit.ready === false;
  const flags = [];
  if (unit.attack_bonus) flags.push(`+${unit.attack_bonus} ATK`);
  if (unit.moves) flags.push(unit.moves > 1 ? `moved x${unit.moves}` : "moved");
  if (unit.devoured) flags.push("devoured");
  const stats = [changedStat("atk", "ATK", attack, printed, "attack")];
  if (leader) {
    const cost = stat(entry, "cost");
    if (cost !== null) stats.push(h("span", { class: "cost", title: "cost: the LP an attack of it takes" }, `cost ${cost}`));
  } else if (hp !== null && hp !== undefined) {
    const printedHp = stat(entry, "HP");
    const node = changedStat(`hp${damage ? " damaged" : ""}`, "HP", hp, printedHp, `HP left ${hp - damage} of ${hp}`);
    node.firstChild.textContent = `HP ${hp - damage}/${hp}`;
    stats.push(node);
  }
  const keywords = entry && Array.isArray(entry.keywords) ? entry.keywords : [];
  return h(
    "div",
    { class: `unit${leader ? " leader" : ""}${acted ? " acted" : ""}`, "data-card": unit.card },
    h(
      "div",
      { class: "unit-card", "data-words": entry ? unit.card : null },
      acted ? h("span", { class: "acted-mark", title: "has acted this turn (tapped)" }, "acted") : null,
      entry ? cardInfoButton(unit.card) : null,
      h("div", { class: "uid" }, leader ? `★ ${unit.card}` : unit.card),
      entry ? h("div", { class: "uname" }, shortName(unit.card, entry)) : null,
      keywords.length ? h("div", { class: "ukw" }, cardText({ ...entry, abilities: [] }, { stats: null })) : null,
    ),
    h("div", { class: "unit-stats" }, stats),
    flags.length ? h("div", { class: "unit-flags" }, flags.join(" · ")) : null,
  );
}

function squareNode(obs, seat, name, unit, ctx) {
  const key = `${seat}:${name}`;
  // an empty square shows the dominance its neighbours supply: the highest cost deployable there (A11.2)
  const supply = obs.players && obs.players[seat] && obs.players[seat].supply ? obs.players[seat].supply[name] : undefined;
  const mark = MARKS[ctx.highlights.get(key)] || null;
  const place = `${seat} ${name[0] === "F" ? "front" : "back"} row, column ${name.slice(1)} (${name})`;
  const what = unit ? unitSaid(unit) : `empty${Number.isInteger(supply) ? `, dominance ${supply}` : ""}`;
  const attrs = {
    class: `square${unit ? " occupied" : " empty"}`,
    "data-square": key,
    title: key,
    "data-mark": mark,
    role: "group",
    "aria-label": `${place}${mark ? ` (${mark})` : ""}: ${what}`,
  };
  if (ctx.highlights.has(key)) attrs.class += ` ${ctx.highlights.get(key)}`;
  clickable(attrs, ctx.clicks.squares.get(key), ctx);
  const supplied = !unit && Number.isInteger(supply) ? h("span", { class: "supply" }, h("span", { class: "kw", "data-term": "dominance" }, "dominance"), ` ${supply}`) : null;
  return h("div", attrs, h("span", { class: "sq-name" }, name, mark ? h("span", { class: "mark" }, mark) : null), unit ? unitNode(unit) : supplied);
}

function gridRows(obs, seat, isMe, ctx) {
  const field = (obs.players && obs.players[seat] && obs.players[seat].field) || {};
  const rows = isMe ? ["F", "B"] : ["B", "F"];
  return rows.map((row) =>
    h(
      "div",
      zoneAttrs(
        { class: `grid-row row-${row}`, "data-row": `${seat}:${row}`, "data-zone": !isMe && row === "F" ? "opponent-front" : null },
        `${isMe && !ctx.spectator ? "Your" : `${seat}'s`} ${row === "F" ? "front" : "back"} row`,
      ),
      h("div", { class: "row-label" }, `${seat} ${row === "F" ? "front" : "back"}`),
      ctx.columns.map((c) => squareNode(obs, seat, `${row}${c}`, field[`${row}${c}`] || null, ctx)),
    ),
  );
}

function handCard(id, ctx, action, pending) {
  const entry = cardEntry(id);
  const attrs = {
    class: `acard${pending ? " pending" : ""}`,
    "data-card": id,
    "data-words": entry ? id : null,
    "data-mark": pending ? "chosen" : null,
    role: "group",
    "aria-label": `${cardSpoken(id)}${pending ? " (chosen)" : ""}`,
  };
  if (action) clickable(attrs, action, ctx);
  else explainable(attrs, `DEPLOY ${id}`, ctx);
  return h(
    "div",
    attrs,
    entry ? cardInfoButton(id) : null,
    pending ? h("span", { class: "mark" }, "chosen") : null,
    h("div", { class: "uid" }, id),
    entry ? h("div", { class: "uname" }, shortName(id, entry)) : null,
    entry ? h("div", { class: "face-text" }, cardText(entry, { stats: handStats(entry) })) : null,
  );
}

function playerBar(obs, seat, isMe, ctx) {
  const p = (obs.players && obs.players[seat]) || {};
  const discard = Array.isArray(p.discard) ? p.discard : [];
  const removed = Array.isArray(p.removed) ? p.removed : [];
  const deck = Number.isInteger(p.deck_size) ? p.deck_size : Array.isArray(p.deck) ? p.deck.length : "?";
  const handSize = Number.isInteger(p.hand_size) ? p.hand_size : Array.isArray(p.hand) ? p.hand.length : "?";
  const tags = [];
  if (obs.active === seat && obs.window !== "over") tags.push(h("span", { class: "tag turn" }, "active"));
  if (obs.to_move === seat && obs.window !== "over") tags.push(h("span", { class: "tag move" }, "to act"));
  if (obs.winner === seat) tags.push(h("span", { class: "tag win" }, "winner"));
  const lp = Number.isFinite(p.lp) ? p.lp : "?";
  return h(
    "div",
    { class: "player-bar", "data-seat": seat },
    h("span", { class: "seat-name" }, ctx.me === seat && !ctx.spectator ? `${seatLabel(seat, ctx.seats)} (you)` : seatLabel(seat, ctx.seats)),
    tags,
    h("span", { class: "lp", title: "life points" }, `LP ${lp}`),
    h("span", { class: "counts" }, `deck ${deck} · hand ${handSize} · discard ${discard.length} · removed ${removed.length}`),
    discard.length
      ? h("span", { class: "recent", title: `discard pile (oldest first): ${discard.join(", ")}` }, `last discarded: ${discard.slice(-3).join(", ")}`)
      : null,
  );
}

function handZone(obs, seat, isMe, ctx) {
  const p = (obs.players && obs.players[seat]) || {};
  const handSize = Number.isInteger(p.hand_size) ? p.hand_size : Array.isArray(p.hand) ? p.hand.length : 0;
  const row = h("div", { class: "cards hand" });
  const mine = isMe && !ctx.spectator;
  if (Array.isArray(p.hand) && !(ctx.spectator && p.hand.length === 0 && handSize > 0)) {
    const pendingCard = isMe && obs.pending && obs.pending.card;
    for (const id of p.hand) row.appendChild(handCard(id, mine ? ctx : { view: ctx.view }, mine ? ctx.clicks.hand.get(id) : null, pendingCard === id));
  } else {
    for (let i = 0; i < handSize; i++) row.appendChild(h("div", { class: "acard back", title: "hidden card", role: "img", "aria-label": "hidden card" }));
  }
  if (!handSize) row.appendChild(h("span", { class: "empty" }, "no cards"));
  const label = h("div", { class: "zone-label" }, mine ? "Your hand" : `${seat} hand`);
  const said = `${mine ? "Your" : `${seat}'s`} hand, ${handSize} cards`;
  return h("div", zoneAttrs({ class: `zone hand-zone${mine ? " mine" : ""}`, "data-zone": mine ? "hand" : "opponent-hand" }, said), label, row);
}

/** What the current decision is about, each unit named by its card and square (not "P2:F0"). */
function pendingBox(obs, view) {
  const items = [];
  const pending = obs.pending;
  if (pending && typeof pending === "object") {
    if (pending.square) items.push(`Chosen unit: ${unitOn(view, obs.to_move ? `${obs.to_move}:${pending.square}` : pending.square)}`);
    if (pending.card) items.push(`Card to deploy: ${cardName(pending.card)}`);
    if (pending.ability) items.push(`Ability: ${words(pending.ability)}${pending.amount ? ` ${pending.amount}` : ""}`);
    if (pending.attacker) {
      const target = pending.target ? unitOn(view, String(pending.target)) : "?";
      items.push(`${unitOn(view, String(pending.attacker))} attacks ${target}${pending.side ? " (side attack)" : " (front attack)"}`);
    }
  }
  const triggers = Array.isArray(obs.triggers) ? obs.triggers : [];
  for (const t of triggers) {
    if (t && typeof t === "object") {
      const source = t.source ? cardName(t.source) : "";
      items.push(`Trigger waiting: ${t.player || ""} ${source}: ${words(t.ability)} ${t.amount ?? ""}`.replace(/\s+/g, " ").trim());
    }
  }
  if (!items.length) return null;
  return h("div", { class: "pending-box", id: "pending" }, items.map((text) => h("div", null, text)));
}

export function render(view, container, onAction, tools = {}) {
  const obs = (view && view.observation) || {};
  const spectator = !view.seat && !obs.player;
  const me = view.seat || obs.player || (view.perspective === "P2" ? "P2" : "P1");
  const them = other(me);
  const legal = Array.isArray(view.legal) && typeof onAction === "function" ? view.legal : [];
  const highlights = new Map();
  const pending = obs.pending && typeof obs.pending === "object" ? obs.pending : null;
  if (pending) {
    if (pending.square && obs.to_move) highlights.set(`${obs.to_move}:${pending.square}`, "pending");
    if (pending.attacker) highlights.set(String(pending.attacker), "attacking");
    if (pending.target) highlights.set(String(pending.target), "targeted");
  }
  const ctx = {
    me,
    spectator,
    seats: view.seats || {},
    columns: me === "P2" ? [2, 1, 0] : [0, 1, 2],
    clicks: legal.length ? clickTargets(legal, me) : { squares: new Map(), hand: new Map() },
    onAction: legal.length ? onAction : null,
    explain: legal.length ? tools.explain : null,
    highlights,
    view,
  };
  const columnHeader = h(
    "div",
    { class: "grid-row col-header" },
    h("div", { class: "row-label" }, ""),
    ctx.columns.map((c) => h("div", { class: "col-label" }, `column ${c}`)),
  );
  replace(
    container,
    h(
      "div",
      { class: "board aterial" },
      playerBar(obs, them, false, ctx),
      handZone(obs, them, false, ctx),
      h(
        "div",
        { class: "grids" },
        columnHeader,
        gridRows(obs, them, false, ctx),
        h("div", { class: "front-line" }, "front rows meet here"),
        gridRows(obs, me, true, ctx),
      ),
      pendingBox(obs, view),
      playerBar(obs, me, true, ctx),
      handZone(obs, me, true, ctx),
    ),
  );
  settle(container);
}
