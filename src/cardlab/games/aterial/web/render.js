// Soukoku no Aterial board renderer.
// render(view, container, onAction): both 2x3 fields, the viewer's at the bottom (spectators see
// P1 at the bottom); for P2 the columns are mirrored (2,1,0) so each player sees the board from
// their own side. Squares carry data-square="P1:F0"; squares, hand cards and buttons that stand
// for a legal action carry data-action with the exact action string.
// Accepts the observation shape (effective attack/hp on units, deck_size, hand null when hidden)
// and the full position shape (deck list, hands shown) used by finished replays.

import { h, replace, other, seatLabel, words } from "../common.js";

// The packaged sample set (spec A21): id -> [name, cost, attack, hp, dominance, abilities, lp].
// Only used for tooltips/labels when the game runs on the packaged cards (config.cards null).
const CARDS = {
  L01: ["Marshal Odette Renn", 2, 2, null, 2, "aura(human, 0, 1)", 22],
  L02: ["Warden-Seraph Calyx", 2, 1, null, 2, "wide_reach", 20],
  L03: ["Duke Morvane of the Ashen Court", 3, 3, null, 1, "siege(1)", 20],
  L04: ["Matriarch Greytusk", 2, 3, null, 2, "aura(beast, 1, 0)", 22],
  L05: ["Foundry Mind KR-7", 2, 2, null, 2, "rear_support(1)", 21],
  S01: ["Tin Scout", 0, 1, 1, 1, ""],
  S02: ["Hearth Acolyte", 0, 0, 2, 1, "tap_heal(1)"],
  S03: ["Ember Imp", 0, 1, 1, 0, "hand_cycle"],
  S04: ["Burrow Pup", 0, 1, 1, 1, "kinship(beast, 1)"],
  S05: ["Halo Mote", 0, 0, 1, 1, "rear_support(1)"],
  S06: ["Militia Pikeman", 1, 2, 2, 1, "flank(1)"],
  S07: ["Gate Warden", 1, 0, 4, 1, "cannot_attack; armor(1)"],
  S08: ["Cinder Hound", 1, 2, 2, 1, "kinship(demon, 1)"],
  S09: ["Cog Sentry", 1, 1, 3, 1, "armor(1)"],
  S10: ["Lantern Cherub", 1, 1, 2, 1, "deploy_heal(2)"],
  S11: ["Quartermaster", 1, 1, 2, 1, "deploy_draw(1)"],
  S12: ["Spark Gremlin", 1, 1, 1, 0, "deploy_strike(1)"],
  S13: ["Brimstone Cantor", 1, 0, 2, 2, ""],
  S14: ["Shield Sister", 2, 2, 4, 1, "armor(1)"],
  S15: ["Skyblade Novice", 2, 2, 3, 1, "evasive"],
  S16: ["Longbow Ranger", 2, 2, 2, 1, "ranged"],
  S17: ["Pack Wolf", 2, 2, 3, 1, "kinship(beast, 1); nimble"],
  S18: ["Brass Surveyor", 2, 1, 3, 2, "wide_reach"],
  S19: ["Pit Brute", 2, 3, 3, 0, "pierce"],
  S20: ["Choir Herald", 2, 1, 3, 2, "rear_support(1)"],
  S21: ["Drill Sergeant", 2, 2, 3, 1, "hand_rally(2)"],
  S22: ["Grave Leech", 2, 2, 3, 1, "devour(1)"],
  S23: ["Arbalest Drone", 2, 1, 2, 1, "tap_snipe(1)"],
  S24: ["Elder Stag", 2, 1, 4, 2, ""],
  S25: ["Iron Paladin", 3, 3, 5, 1, "armor(1)"],
  S26: ["Storm Valkyrie", 3, 3, 4, 1, "flank(2)"],
  S27: ["Hellgate Reaver", 3, 4, 4, 0, "siege(1)"],
  S28: ["Thornback Boar", 3, 4, 4, 1, "pierce"],
  S29: ["Gearwork Ballista", 3, 3, 3, 1, "ranged"],
  S30: ["Sanctum Oracle", 3, 2, 4, 2, "deploy_draw(1)"],
  S31: ["Bone Conductor", 3, 2, 4, 1, "aura(demon, 1, 0)"],
  S32: ["Field Surgeon", 3, 2, 4, 1, "tap_heal(1); farewell_heal(2)"],
  S33: ["Siege Golem", 4, 4, 6, 0, "siege(2)"],
  S34: ["Dawn Archon", 4, 4, 5, 2, "aura(angel, 0, 1)"],
  S35: ["Alpha Direbear", 4, 5, 5, 1, "aura(beast, 1, 0)"],
  S36: ["Abyssal Duchess", 4, 4, 5, 1, "deploy_strike(2)"],
  S37: ["Banner Knight", 4, 4, 5, 2, "kinship(human, 1)"],
  S38: ["Clockwork Colossus", 5, 6, 7, 0, "armor(1)"],
  S39: ["Ash Wyrm", 5, 6, 6, 1, "pierce; evasive"],
  S40: ["Seraph Lancer", 5, 5, 6, 1, "evasive; siege(1)"],
  S41: ["Last Forge Titan", 6, 7, 8, 0, "armor(2)"],
};

function cardInfo(obs, id) {
  const config = (obs && obs.config) || {};
  if (config.cards !== null && config.cards !== undefined) return null;
  const entry = CARDS[id];
  if (!entry) return null;
  const [name, cost, attack, hp, dominance, abilities, lp] = entry;
  return { name, cost, attack, hp, dominance, abilities, lp, leader: String(id).startsWith("L") };
}

function infoTitle(id, info) {
  if (!info) return String(id);
  const parts = [`${id} ${info.name}`, `cost ${info.cost}`, `attack ${info.attack}`];
  if (info.hp !== null && info.hp !== undefined) parts.push(`HP ${info.hp}`);
  if (info.lp) parts.push(`LP ${info.lp}`);
  parts.push(`dominance ${info.dominance}`);
  if (info.abilities) parts.push(info.abilities);
  return parts.join(" · ");
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

export function actionLabel(action) {
  const parts = String(action).split(" ");
  const [verb, a, b] = parts;
  switch (verb) {
    case "KEEP":
      return "Keep hand";
    case "MULLIGAN":
      return "Mulligan";
    case "MOVE":
      return `Move ${a}`;
    case "TO":
      return `To ${a}`;
    case "END_MOVE":
      return "End move phase";
    case "DEPLOY":
      return `Deploy ${a}`;
    case "ACTIVATE":
      return `${a}: ${words(b)}`;
    case "HAND":
      return `${a}: ${words(b)} (from hand)`;
    case "END_ACTION":
      return "End action phase";
    case "ATTACK":
      return `Attack with ${a}`;
    case "TARGET":
      return `Target ${a}`;
    case "END_ATTACK":
      return "End attack phase";
    case "BLOCK":
      return "Block";
    case "NO_BLOCK":
      return "Don't block";
    case "DISCARD":
      return `Discard ${a}`;
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

function clickable(attrs, action, onAction, label) {
  if (!action || !onAction) return attrs;
  attrs.class += " clickable";
  attrs["data-action"] = action;
  attrs.role = "button";
  attrs.tabindex = "0";
  attrs.title = `${attrs.title ? attrs.title + " — " : ""}${label || actionLabel(action)}`;
  attrs.onclick = () => onAction(action);
  attrs.onkeydown = (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onAction(action);
    }
  };
  return attrs;
}

function unitNode(obs, unit) {
  const info = cardInfo(obs, unit.card);
  const leader = unit.hp === undefined ? (info ? info.leader : String(unit.card).startsWith("L")) : false;
  const attack = Number.isFinite(unit.attack) ? unit.attack : info ? info.attack + (unit.attack_bonus || 0) : "?";
  const hp = Number.isFinite(unit.hp) ? unit.hp : info && !leader ? info.hp : null;
  const damage = Number(unit.damage) || 0;
  const acted = unit.ready === false;
  const flags = [];
  if (unit.attack_bonus) flags.push(`+${unit.attack_bonus} atk`);
  if (unit.moves) flags.push(unit.moves > 1 ? `moved ×${unit.moves}` : "moved");
  if (unit.devoured) flags.push("devoured");
  if (acted) flags.push("acted");
  const stats = [h("span", { class: "atk", title: "effective attack" }, `⚔${attack}`)];
  if (leader) {
    if (info) stats.push(h("span", { class: "cost", title: "cost: LP loss when attacking the enemy leader" }, `◆${info.cost}`));
  } else if (hp !== null && hp !== undefined) {
    stats.push(
      h(
        "span",
        { class: `hp${damage ? " damaged" : ""}`, title: `HP left ${hp - damage} of ${hp} (damage ${damage})` },
        `♥${hp - damage}/${hp}`,
      ),
    );
  }
  return h(
    "div",
    { class: `unit${leader ? " leader" : ""}${acted ? " acted" : ""}`, "data-card": unit.card },
    h(
      "div",
      { class: "unit-card", title: infoTitle(unit.card, info) },
      h("div", { class: "uid" }, leader ? `★ ${unit.card}` : unit.card),
      info ? h("div", { class: "uname" }, info.name) : null,
    ),
    h("div", { class: "unit-stats" }, stats),
    flags.length ? h("div", { class: "unit-flags" }, flags.join(" · ")) : null,
  );
}

function squareNode(obs, seat, name, unit, ctx) {
  const key = `${seat}:${name}`;
  const attrs = { class: `square${unit ? " occupied" : " empty"}`, "data-square": key, title: key };
  if (ctx.highlights.has(key)) attrs.class += ` ${ctx.highlights.get(key)}`;
  clickable(attrs, ctx.clicks.squares.get(key), ctx.onAction);
  return h("div", attrs, h("span", { class: "sq-name" }, name), unit ? unitNode(obs, unit) : null);
}

function gridRows(obs, seat, isMe, ctx) {
  const field = (obs.players && obs.players[seat] && obs.players[seat].field) || {};
  const rows = isMe ? ["F", "B"] : ["B", "F"];
  return rows.map((row) =>
    h(
      "div",
      { class: `grid-row row-${row}`, "data-row": `${seat}:${row}` },
      h("div", { class: "row-label" }, `${seat} ${row === "F" ? "front" : "back"}`),
      ctx.columns.map((c) => squareNode(obs, seat, `${row}${c}`, field[`${row}${c}`] || null, ctx)),
    ),
  );
}

function handCard(obs, id, action, onAction, pending) {
  const info = cardInfo(obs, id);
  const attrs = { class: `acard${pending ? " pending" : ""}`, "data-card": id, title: infoTitle(id, info) };
  clickable(attrs, action, onAction);
  return h(
    "div",
    attrs,
    h("div", { class: "uid" }, id),
    info ? h("div", { class: "uname" }, info.name) : null,
    info ? h("div", { class: "unit-stats" }, `◆${info.cost} ⚔${info.attack} ♥${info.hp}`) : null,
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
  if (Array.isArray(p.hand) && !(ctx.spectator && p.hand.length === 0 && handSize > 0)) {
    const pendingCard = isMe && obs.pending && obs.pending.card;
    for (const id of p.hand) {
      row.appendChild(handCard(obs, id, isMe ? ctx.clicks.hand.get(id) : null, ctx.onAction, pendingCard === id));
    }
  } else {
    for (let i = 0; i < handSize; i++) row.appendChild(h("div", { class: "acard back", title: "hidden card" }));
  }
  if (!handSize) row.appendChild(h("span", { class: "empty" }, "no cards"));
  return h("div", { class: "zone" }, h("div", { class: "zone-label" }, isMe && !ctx.spectator ? "Your hand" : `${seat} hand`), row);
}

function pendingBox(obs) {
  const items = [];
  const pending = obs.pending;
  if (pending && typeof pending === "object") {
    if (pending.square) items.push(`Chosen unit: ${obs.to_move || ""}:${pending.square}`);
    if (pending.card) items.push(`Card to deploy: ${pending.card}`);
    if (pending.ability) items.push(`Ability: ${words(pending.ability)}${pending.amount ? ` ${pending.amount}` : ""}`);
    if (pending.attacker) items.push(`${pending.attacker} attacks ${pending.target || "?"}${pending.side ? " (side attack)" : " (front attack)"}`);
  }
  const triggers = Array.isArray(obs.triggers) ? obs.triggers : [];
  for (const t of triggers) {
    if (t && typeof t === "object") items.push(`Trigger waiting: ${t.player || ""} ${t.source || ""} ${words(t.ability)} ${t.amount ?? ""}`.trim());
  }
  if (!items.length) return null;
  return h("div", { class: "pending-box", id: "pending" }, items.map((text) => h("div", null, text)));
}

export function render(view, container, onAction) {
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
    highlights,
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
      pendingBox(obs),
      playerBar(obs, me, true, ctx),
      handZone(obs, me, true, ctx),
    ),
  );
}
