// Dreadnought board renderer.
// render(view, container, onAction): each seat's two battle areas (caster with its HP count and up
// to two units) and idol area, its speed area, bursts, engraves, discard and hand; the viewer's
// side at the bottom (spectators see P1 at the bottom). Field places carry data-slot="P1:BA1.U1";
// places, areas and cards that stand for exactly one legal action carry data-action with the exact
// action string. A card or place with several actions (cast it, or a dummy into BA1 or BA2) is a
// "chooser": a click selects it, the battle areas it can go to become its destinations, and a bar
// lists its other actions. The action buttons beside the board (game.js) offer every legal action anyway.
// Reads the observation shape of position.dump_observation: hidden zones are counts there.

import { h, replace, other, seatLabel, words } from "../common.js";

// The packaged sample set (spec D23): id -> [name, type, cluster, speed, cost, stats, text].
// Used for names and tooltips; cards from extra card files show their bare ids.
const CARDS = {
  X01: ["Ignis Varga", "caster", "red", "", null, "HP 3", "CAST (field, log 1, check self): enchant(kind=boost, target=own_unit, count=1)"],
  X02: ["Sable Kurenai", "caster", "red", "", null, "HP 3", "REACTION [own_attack] (field, check self): attack_mod(amount=20)"],
  X03: ["Oren Quill", "caster", "yellow", "", null, "HP 3", "SPEED (field, check self): speed_shift(steps=1)"],
  X04: ["Mira Tidewell", "caster", "blue", "", null, "HP 3", "REACTION (field, log 1, check self): shield(target=own_unit, amount=30)"],
  X05: ["Vesper Morrow", "caster", "black", "", null, "HP 3", "ACTION (field, log 2, check self): enchant(kind=weaken, target=enemy_unit, count=1)"],
  X06: ["Fen Larkspur", "caster", "green", "", null, "HP 4", ""],
  X07: ["Tala Greenward", "caster", "green", "", null, "HP 3", "CAST (field, log 1, check self): engrave(n=1)"],
  R01: ["Ashfang Cub", "unit", "red", "A", 0, "S BP 70", "sub FAST/REACTION (free): bp_mod(target=own_unit[name=Ashfang Cub], amount=30)"],
  R02: ["Blaze Warden", "unit", "red", "B", 0, "M BP 100", ""],
  R03: ["Crimson Brute", "unit", "red", "C", 2, "L BP 190", ""],
  R04: ["Ember Lancer", "unit", "red", "B", 1, "S BP 80", "on_attack (battle): attack_mod(amount=10)"],
  R05: ["Flame Burst", "code", "red", "B", 1, "", "ACTION: damage(target=enemy_unit, amount=80)"],
  R06: ["Searing Arrow", "code", "red", "A", 2, "", "ACTION/REACTION: damage(target=enemy_unit, amount=60)"],
  R07: ["War Cry", "code", "red", "A+", 1, "", "REACTION [own_attack]: attack_mod(amount=40)"],
  R08: ["Kindle Spirit", "code", "red", "A", 1, "", "CAST/FAST: enchant(kind=boost, target=own_unit, count=2)"],
  R09: ["Hearth of Cinders", "idol", "red", "B", 1, "S BP 60 upkeep 1", "static (idol): static_bp(target=all_own_units[zone=battle], amount=10) | ACTION (battle, check self): damage(target=enemy_unit, amount=30)"],
  R10: ["Twin-Flame Brute", "unit", "red", "B", 1, "M BP 130", ""],
  R11: ["Magma Gauntlet", "arms", "red", "B", 1, "", "grants ACTION (field, check self): damage(target=enemy_unit, amount=40)"],
  Y01: ["Spark Sprite", "unit", "yellow", "A+", 0, "S BP 70", "sub FAST/REACTION (free): bp_mod(target=own_unit, amount=10)"],
  Y02: ["Thunder Stag", "unit", "yellow", "A", 0, "M BP 100", ""],
  Y03: ["Storm Roc", "unit", "yellow", "B", 0, "L BP 170", "on_cast (battle): draw(n=1)"],
  Y04: ["Quickstep Courier", "unit", "yellow", "A+++", 0, "S BP 60", "on_speed_reveal (speed): burst(n=1)"],
  Y05: ["Lightning Relay", "code", "yellow", "A", 1, "", "ACTION: normalize(target=own_unit) | sub PAYMENT (free): cost_reduce(n=1)"],
  Y06: ["Overclock", "code", "yellow", "A+", 0, "", "SPEED: speed_shift(steps=2)"],
  Y07: ["Static Snare", "code", "yellow", "A", 1, "", "ACTION/REACTION: check(target=enemy_unit)"],
  Y08: ["Bolt Shrine", "idol", "yellow", "A", 0, "S BP 50 upkeep 1", "SPEED (idol, check self): speed_shift(steps=1) | static (battle): static_bp(target=self, amount=30)"],
  Y09: ["Galvanic Spear", "arms", "yellow", "B", 1, "", "grants REACTION [own_attack] (field, check self): attack_mod(amount=30)"],
  B01: ["Tide Nymph", "unit", "blue", "A", 0, "S BP 70", "sub FAST/REACTION (free): bp_mod(target=own_unit[name=Tide Nymph], amount=30)"],
  B02: ["Bulwark Tortoise", "unit", "blue", "C", 1, "M BP 110", "static (battle): static_shield(target=self, amount=20)"],
  B03: ["Abyssal Warden", "unit", "blue", "C", 3, "L BP 200", ""],
  B04: ["Aegis Sigil", "code", "blue", "B", 1, "", "REACTION: attach(target=own_unit, statics=[static_shield(target=host, amount=40)])"],
  B05: ["Riptide", "code", "blue", "B", 2, "", "ACTION: bounce(target=enemy_unit[bp<=120])"],
  B06: ["Mist Veil", "code", "blue", "A++", 0, "", "REACTION: enchant(kind=boost, target=own_unit, count=1)"],
  B07: ["Tidal Recall", "code", "blue", "A", 1, "", "CAST/ACTION: draw(n=2) | sub PAYMENT (free): cost_reduce(n=1)"],
  B08: ["Moonwell Shrine", "idol", "blue", "B", 1, "S BP 60 upkeep 1", "REACTION (idol, check self): shield(target=own_unit, amount=20)"],
  B09: ["Coral Buckler", "arms", "blue", "A", 0, "", "grants REACTION (field, check self): shield(target=own_unit, amount=30)"],
  B10: ["Undertow", "code", "blue", "B", 1, "", "ACTION: move(target=enemy_unit[zone=battle])"],
  G01: ["Moss Sprite", "unit", "green", "A", 0, "S BP 70", ""],
  G02: ["Grove Stag", "unit", "green", "B", 0, "M BP 90", "end_of_turn (battle): burst(n=1)"],
  G03: ["Ancient Oakwarden", "unit", "green", "C", 0, "L BP 170", "on_cast (battle): draw(n=1)"],
  G04: ["Seedling Swarm", "unit", "green", "A+", 0, "S BP 60", ""],
  G05: ["Verdant Rite", "code", "green", "B", 1, "", "CAST: engrave(n=2)"],
  G06: ["Wild Growth", "code", "green", "A", 0, "", "extra cost: engrave 1 | CAST/FAST/REACTION: enchant(kind=boost, target=own_unit, count=2)"],
  G07: ["Thorn Lash", "code", "green", "B", 1, "", "extra cost: engrave 1 | ACTION/REACTION: damage(target=enemy_unit, amount=70)"],
  G08: ["Rootheart Shrine", "idol", "green", "C", 1, "M BP 90 upkeep 2", "CAST (idol, check self): engrave(n=1) | static (battle): static_bp(target=self, amount=20)"],
  G09: ["Lifebloom", "code", "green", "C", 3, "", "CAST: hp_gain(target=own_caster, n=1)"],
  G10: ["Bark Mantle", "arms", "green", "B", 1, "", "grants REACTION (field, check self, engrave 1): enchant(kind=boost, target=own_unit, count=2)"],
  K01: ["Grave Rat", "unit", "black", "A", 0, "S BP 70", "on_block (battle): enchant(kind=weaken, target=attacker, count=1)"],
  K02: ["Hollow Knight", "unit", "black", "B", 0, "M BP 100", "on_break (battle): enchant(kind=weaken, target=enemy_unit, count=1)"],
  K03: ["Abyss Maw", "unit", "black", "C", 2, "L BP 190", "start_of_action_phase (battle): enchant(kind=weaken, target=enemy_unit, count=1)"],
  K04: ["Withering Curse", "code", "black", "A", 1, "", "ACTION/REACTION: enchant(kind=weaken, target=enemy_unit, count=2)"],
  K05: ["Soul Reap", "code", "black", "C", 3, "", "ACTION: break(target=enemy_unit[bp<=100])"],
  K06: ["Dread Omen", "code", "black", "C", 4, "", "extra cost: engrave 1 | ACTION: hp_break(target=enemy_caster, n=1)"],
  K07: ["Bone Altar", "idol", "black", "B", 0, "S BP 40 upkeep 1", "ACTION (idol, check self, discard 1): enchant(kind=weaken, target=enemy_unit, count=1)"],
  K08: ["Night Scythe", "arms", "black", "B", 2, "", "grants ACTION (field, check self): enchant(kind=weaken, target=enemy_unit, count=1)"],
  N01: ["Wandering Golem", "unit", "", "B", 0, "M BP 90", ""],
  N02: ["Mercenary Blade", "unit", "", "A", 0, "S BP 60", ""],
  N03: ["Focus Draw", "code", "", "A", 0, "", "extra cost: discard 1 | CAST/ACTION: draw(n=2)"],
  N04: ["Rallying Horn", "code", "", "B", 2, "", "REACTION [own_attack]: attack_mod(amount=50)"],
  N05: ["Stormfire Drake", "unit", "red/yellow", "B", 1, "M BP 130", ""],
  N06: ["Tideglade Stag", "unit", "blue/green", "B", 1, "M BP 120", "static (battle): static_shield(target=self, amount=10)"],
  N07: ["Mirror Ward", "code", "", "A", 1, "", "REACTION [enemy_attack]: shield(target=blocker, amount=50)"],
  N08: ["Rotbloom Horror", "unit", "black/green", "C", 1, "L BP 180", "on_cast (battle): enchant(kind=weaken, target=enemy_unit, count=1)"],
};

const GRADES = ["C", "B", "A", "A+", "A++", "A+++"];

// Card files in the config add cards to this set (ids stay unique), so packaged ids keep their meaning.
function info(obs, id) {
  if (id === null || id === undefined) return null;
  const entry = Object.prototype.hasOwnProperty.call(CARDS, id) ? CARDS[id] : null;
  if (!entry) return null;
  const [name, type, cluster, speed, cost, stats, text] = entry;
  return { name, type, cluster, speed, cost, stats, text };
}

function cardTitle(obs, id) {
  const i = info(obs, id);
  if (!i) return String(id ?? "hidden");
  const parts = [`${id} ${i.name}`, i.type];
  if (i.cluster) parts.push(i.cluster);
  if (i.speed) parts.push(`speed ${i.speed}`);
  if (i.cost !== null && i.cost !== undefined) parts.push(`cost ${i.cost}`);
  if (i.stats) parts.push(i.stats);
  if (i.text) parts.push(i.text);
  return parts.join(" · ");
}

function cardName(obs, id) {
  const i = info(obs, id);
  return i ? `${id} ${i.name}` : String(id);
}

const WINDOW_NAMES = {
  place: "caster placement",
  mull: "mulligan",
  speed_window: "speed actions",
  cast_window: "cast actions",
  fast_window: "fast actions",
  dest: "cast: where to?",
  move_to: "move: where to?",
  upkeep_idol: "idol upkeep",
  target: "choose a target",
  pay_discard: "pay: discard a card",
  pay_src: "pay: log source",
  aturn: "action turn",
  abuild: "attack: attackers and area",
  block: "choose a blocker",
  react: "reaction right",
  pick: "choose material",
  scrap: "engrave overflow",
  order: "trigger order",
  hpdraw: "HP draw",
  hpdeck: "HP card for the deck",
  limit: "hand limit",
  over: "game over",
};

export function windowName(window) {
  return WINDOW_NAMES[window] || words(window);
}

const SLOT_WORDS = { C: "caster", U1: "unit 1", U2: "unit 2" };

function slotWords(slot) {
  const text = String(slot);
  const [seatPart, rest] = text.includes(":") ? text.split(":") : [null, text];
  if (rest === "IDOL") return `${seatPart ? `${seatPart} ` : ""}idol`;
  const [area, place] = rest.split(".");
  return `${seatPart ? `${seatPart} ` : ""}${area} ${SLOT_WORDS[place] || place || ""}`.trim();
}

function cardWords(token) {
  const text = String(token);
  const fromSpeed = text.endsWith("@S");
  const id = fromSpeed ? text.slice(0, -2) : text;
  const entry = Object.prototype.hasOwnProperty.call(CARDS, id) ? CARDS[id] : null;
  return `${entry ? `${id} ${entry[0]}` : id}${fromSpeed ? " (speed area)" : ""}`;
}

export function actionLabel(action) {
  const [verb, a, b] = String(action).split(" ");
  switch (verb) {
    case "DONE":
      return "Done";
    case "PASS":
      return "Pass";
    case "KEEP":
      return "Keep this hand";
    case "GODDRAW":
      return "God draw (a burst to hand)";
    case "UPKEEP":
      return a === "PAY" ? "Pay the idol's upkeep" : "Check the idol instead";
    case "PAY":
      if (a === "BURST") return "Pay 1 log: check a burst";
      if (a === "ENGRAVE") return "Pay 1 log: check an engrave";
      if (a === "IDOL") return "Pay 1 log: check the idol";
      return `Pay 1 log: check the ${a} caster`;
    case "TO":
      return a === "IDOL" ? "To the idol area" : `To battle area ${a}`;
    case "ATTACK":
      return `Attack the enemy ${a}`;
    case "HPDRAW":
      return `Take an HP card of ${a}`;
    case "TARGET":
      return `Target ${slotWords(a)}`;
    case "ATTACKER":
      return `Attacker: ${slotWords(a)}`;
    case "BLOCK":
      return `Block with ${slotWords(a)}`;
    case "MOVE":
      return `Move ${slotWords(a)}`;
    case "REMOVE":
      return `Remove ${slotWords(a)}`;
    case "USE":
      return a.endsWith("@S") ? `Use ${cardWords(a)}, ability ${Number(b) + 1}` : `Use ${slotWords(a)}, ability ${Number(b) + 1}`;
    case "SCRAP":
      return `Discard engrave ${Number(a) + 1}`;
    case "FIRST":
      return `Resolve trigger ${Number(a) + 1} first`;
    case "PLACE":
      return `${cardWords(a)} to BA1`;
    case "GEAR":
      return `Gear change: ${cardWords(a)}`;
    case "MULL":
      return `Set aside ${cardWords(a)}`;
    case "MATERIAL":
      return `Material: ${cardWords(a)}`;
    case "CAST":
      return `Cast ${cardWords(a)}`;
    case "DUMMY":
      return b ? `Dummy: ${cardWords(a)} into ${b}` : `Dummy: ${cardWords(a)}`;
    case "PLAY":
      return `Play ${cardWords(a)}`;
    case "SUB":
      return `Sub-effect of ${cardWords(a)}`;
    case "DISCARD":
      return `Discard ${cardWords(a)}`;
    default:
      return String(action);
  }
}

/** Which key (a field place, an area, a card) each legal action belongs to, with every action of that key. */
function actionsByKey(legal, me) {
  const them = other(me);
  const byKey = new Map();
  const put = (key, action) => {
    if (!byKey.has(key)) byKey.set(key, []);
    byKey.get(key).push(action);
  };
  for (const action of legal) {
    const [verb, a] = String(action).split(" ");
    if (verb === "TARGET") put(`slot:${a}`, action);
    else if (["ATTACKER", "BLOCK", "MOVE", "REMOVE", "USE"].includes(verb) && a && !a.endsWith("@S")) put(`slot:${me}:${a}`, action);
    else if (verb === "USE" && a) put(`card:${a}`, action);
    else if (verb === "PAY" && ["BA1", "BA2"].includes(a)) put(`slot:${me}:${a}.C`, action);
    else if (verb === "PAY" && a === "IDOL") put(`slot:${me}:IDOL`, action);
    else if (verb === "PAY" && a === "BURST") put(`bursts:${me}`, action);
    else if (verb === "GODDRAW") put(`bursts:${me}`, action);
    else if (verb === "PAY" && a === "ENGRAVE") put(`engraves:${me}`, action);
    else if (verb === "TO" || verb === "HPDRAW") put(`area:${me}:${a}`, action);
    else if (verb === "ATTACK") put(`area:${them}:${a}`, action);
    else if (["PLAY", "CAST", "DUMMY", "SUB", "GEAR", "MULL", "DISCARD", "PLACE"].includes(verb)) put(`card:${a}`, action);
    else if (verb === "MATERIAL") put(`discard:${a}`, action);
  }
  return byKey;
}

/** Where on the board the second step of a selected card's action is clicked: a dummy's battle area. */
function destinationKey(action, me) {
  const [verb, , b] = String(action).split(" ");
  return verb === "DUMMY" && b ? `area:${me}:${b}` : null;
}

// The card or board object picked first when it has several actions (#16): the board then offers
// its destinations, and a bar lists the rest. Kept across redraws of the same view version only.
let selection = null;
let lastRender = null;

function select(key) {
  selection = selection && selection.key === key ? null : { key, version: lastRender && lastRender.view.version };
  if (lastRender) render(lastRender.view, lastRender.container, lastRender.onAction);
}

/** Per key the action a click sends (keys with exactly one action, and a selection's destinations),
 * and the keys with several actions, which a click selects. */
function clickTargets(byKey, me) {
  const clicks = new Map();
  const choosers = new Set();
  for (const [key, actions] of byKey) {
    if (actions.length === 1) clicks.set(key, actions[0]);
    else choosers.add(key);
  }
  const chosen = selection ? byKey.get(selection.key) || [] : [];
  for (const action of chosen) {
    const key = destinationKey(action, me);
    if (key) clicks.set(key, action);
  }
  return { clicks, choosers };
}

function selectionBar(obs, ctx) {
  if (!selection || !ctx.onAction) return null;
  const actions = ctx.byKey.get(selection.key) || [];
  const [kind, ...rest] = selection.key.split(":");
  const what = kind === "card" ? cardWords(rest.join(":")) : slotWords(rest.join(":"));
  const direct = actions.filter((action) => !destinationKey(action, ctx.me));
  const placed = actions.filter((action) => destinationKey(action, ctx.me));
  return h(
    "div",
    { class: "choice-bar", "data-selected": selection.key },
    h("b", { title: kind === "card" ? cardTitle(obs, rest.join(":").replace(/@S$/, "")) : "" }, `${what}: `),
    direct.map((action) =>
      h("button", { type: "button", class: "choice", "data-action": action, onclick: () => ctx.onAction(action) }, actionLabel(action)),
    ),
    placed.length ? h("span", { class: "muted" }, `${direct.length ? "or " : ""}click a highlighted battle area (${[...new Set(placed.map((a) => a.split(" ")[0].toLowerCase()))].join(", ")})`) : null,
    h("button", { type: "button", class: "choice cancel", onclick: () => select(selection.key) }, "Cancel"),
  );
}

function choosable(attrs, key, ctx) {
  if (!key || !ctx.onAction) return attrs;
  const action = ctx.clicks.get(key);
  if (action) {
    if (selection && !(ctx.byKey.get(key) || []).includes(action)) attrs.class += " destination";
    return clickable(attrs, action, ctx.onAction);
  }
  if (!ctx.choosers.has(key)) return attrs;
  const choices = ctx.byKey.get(key);
  attrs.class += ` clickable chooser${selection && selection.key === key ? " selected" : ""}`;
  attrs["data-choices"] = String(choices.length);
  attrs.role = "button";
  attrs.tabindex = "0";
  attrs.title = `${attrs.title ? `${attrs.title} — ` : ""}${choices.length} choices: ${choices.map(actionLabel).join("; ")}`;
  attrs.onclick = (event) => {
    event.stopPropagation();
    select(key);
  };
  attrs.onkeydown = (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      select(key);
    } else if (event.key === "Escape" && selection) {
      select(selection.key);
    }
  };
  return attrs;
}

function clickable(attrs, action, onAction) {
  if (!action || !onAction) return attrs;
  attrs.class += " clickable";
  attrs["data-action"] = action;
  attrs.role = "button";
  attrs.tabindex = "0";
  attrs.title = `${attrs.title ? `${attrs.title} — ` : ""}${actionLabel(action)}`;
  attrs.onclick = (event) => {
    event.stopPropagation();
    onAction(action);
  };
  attrs.onkeydown = (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onAction(action);
    }
  };
  return attrs;
}

function count(value) {
  if (Array.isArray(value)) return value.length;
  return Number.isInteger(value) ? value : 0;
}

function smallCard(obs, id, ctx, key, extraClass = "") {
  const attrs = { class: `dcard${extraClass}`, "data-card": id, title: cardTitle(obs, id) };
  choosable(attrs, key, ctx);
  const i = info(obs, id);
  return h(
    "div",
    attrs,
    h("div", { class: "uid" }, id),
    i ? h("div", { class: "uname" }, i.name) : null,
    i && i.speed ? h("div", { class: "dstats" }, `${i.speed} · ◆${i.cost ?? 0}`) : null,
  );
}

function backs(n, label) {
  const out = [];
  for (let i = 0; i < Math.min(n, 12); i++) out.push(h("div", { class: "dcard back", title: label }));
  if (n > 12) out.push(h("span", { class: "more" }, `+${n - 12}`));
  return out;
}

function unitNode(obs, seat, slot, unit, ctx) {
  const key = `slot:${seat}:${slot}`;
  const attrs = { class: "dslot", "data-slot": `${seat}:${slot}`, title: `${seat}:${slot}` };
  if (ctx.highlights.has(`${seat}:${slot}`)) attrs.class += ` ${ctx.highlights.get(`${seat}:${slot}`)}`;
  choosable(attrs, key, ctx);
  if (!unit) return h("div", { ...attrs, class: `${attrs.class} vacant` }, h("span", { class: "slot-name" }, slot.split(".").pop()));
  const dummy = !!unit.dummy;
  const flags = [];
  const enchants = Array.isArray(unit.enchants) ? unit.enchants : [];
  const boosts = enchants.filter((e) => e && e.kind === "boost").length;
  const weakens = enchants.length - boosts;
  if (boosts) flags.push(h("span", { class: "boost", title: "boost enchants: +20 BP each" }, `+${boosts}▲`));
  if (weakens) flags.push(h("span", { class: "weaken", title: "weaken enchants: -20 BP each" }, `-${weakens}▼`));
  const shields = unit.shields ?? unit.shield;
  if (shields) flags.push(h("span", { class: "shield", title: "damage reduction this turn" }, `🛡${shields}`));
  if (unit.bp_mod) flags.push(h("span", { title: "BP change until end of turn" }, `${unit.bp_mod > 0 ? "+" : ""}${unit.bp_mod} BP`));
  if (Array.isArray(unit.attached) && unit.attached.length) flags.push(h("span", { title: unit.attached.map((c) => cardTitle(obs, c)).join("\n") }, `+${unit.attached.join(",")}`));
  if (unit.moved) flags.push(h("span", { class: "muted" }, "moved"));
  const name = dummy ? (unit.card ? `dummy (${unit.card})` : "dummy") : unit.card;
  const i = dummy ? null : info(obs, unit.card);
  const title = dummy ? `dummy: a closed card, size S, BP 50${unit.card ? ` (${cardName(obs, unit.card)})` : ""}` : cardTitle(obs, unit.card);
  return h(
    "div",
    { ...attrs, class: `${attrs.class} unit-slot${unit.checked ? " checked" : ""}${dummy ? " dummy" : ""}` },
    h(
      "div",
      { class: "dunit", title },
      h("div", { class: "uid" }, name),
      i ? h("div", { class: "uname" }, i.name) : null,
      h("div", { class: "bp", title: "current BP" }, `BP ${unit.bp ?? "?"}`),
    ),
    flags.length ? h("div", { class: "uflags" }, flags) : null,
  );
}

function casterNode(obs, seat, area, block, ctx) {
  const caster = block && block.caster;
  const slot = `${area}.C`;
  const attrs = { class: "dslot caster-slot", "data-slot": `${seat}:${slot}`, title: `${seat}:${slot}` };
  if (ctx.highlights.has(`${seat}:${slot}`)) attrs.class += ` ${ctx.highlights.get(`${seat}:${slot}`)}`;
  choosable(attrs, `slot:${seat}:${slot}`, ctx);
  if (!caster) return h("div", { ...attrs, class: `${attrs.class} vacant` }, "no caster yet");
  const hp = count(block.hp);
  const i = info(obs, caster.card);
  const pips = [];
  for (let k = 0; k < Math.min(hp, 10); k++) pips.push(h("span", { class: "hp-pip" }));
  return h(
    "div",
    { ...attrs, class: `${attrs.class}${caster.checked ? " checked" : ""}${hp === 0 ? " down" : ""}` },
    h(
      "div",
      { class: "dcaster", title: cardTitle(obs, caster.card) },
      h("div", { class: "uid" }, `★ ${caster.card}`),
      i ? h("div", { class: "uname" }, i.name) : null,
    ),
    h("div", { class: "hp", title: "HP cards left (each absorbs 50 attack damage)" }, `HP ${hp} `, pips),
    caster.arms ? h("div", { class: "arms", title: cardTitle(obs, caster.arms) }, `arms ${caster.arms}`) : null,
    caster.shield ? h("div", { class: "shield" }, `🛡${caster.shield}`) : null,
  );
}

function areaNode(obs, seat, area, ctx) {
  const p = (obs.players && obs.players[seat]) || {};
  const block = p[area] || { caster: null, hp: 0, units: [] };
  const units = Array.isArray(block.units) ? block.units : [];
  const attrs = { class: "barea", "data-area": `${seat}:${area}` };
  const attack = obs.attack;
  if (attack && attack.player !== seat && attack.area === area) attrs.class += " attacked";
  choosable(attrs, `area:${seat}:${area}`, ctx);
  return h(
    "div",
    attrs,
    h("div", { class: "area-name" }, area),
    casterNode(obs, seat, area, block, ctx),
    h("div", { class: "units" }, [0, 1].map((k) => unitNode(obs, seat, `${area}.U${k + 1}`, units[k] || null, ctx))),
  );
}

function idolNode(obs, seat, ctx) {
  const p = (obs.players && obs.players[seat]) || {};
  const attrs = { class: "barea idol-area", "data-area": `${seat}:IDOL` };
  choosable(attrs, `area:${seat}:IDOL`, ctx);
  return h("div", attrs, h("div", { class: "area-name" }, "IDOL"), unitNode(obs, seat, "IDOL", p.idol || null, ctx));
}

function resourceBar(obs, seat, ctx) {
  const p = (obs.players && obs.players[seat]) || {};
  const bursts = Array.isArray(p.bursts) ? p.bursts : [];
  const checked = bursts.filter((b) => b && b.checked).length;
  const engraves = Array.isArray(p.engraves) ? p.engraves : [];
  const discard = Array.isArray(p.discard) ? p.discard : [];
  const burstAttrs = { class: "res bursts", title: "bursts: closed log sources; normal ones can be god drawn" };
  choosable(burstAttrs, `bursts:${seat}`, ctx);
  const engraveAttrs = { class: "res engraves", title: "engraves: open log sources (at most 3)" };
  choosable(engraveAttrs, `engraves:${seat}`, ctx);
  return h(
    "div",
    { class: "resources" },
    h("span", burstAttrs, `bursts ${bursts.length - checked}`, h("small", null, checked ? ` (+${checked} checked)` : "")),
    h(
      "span",
      engraveAttrs,
      "engraves ",
      engraves.length ? engraves.map((e) => h("span", { class: `eng${e.checked ? " checked" : ""}`, title: cardTitle(obs, e.card) }, e.card)) : "-",
    ),
    h("span", { class: "res" }, `deck ${count(p.deck)}`),
    h(
      "span",
      { class: "res", title: discard.length ? `discard (oldest first): ${discard.join(", ")}` : "empty discard" },
      `discard ${discard.length}`,
      discard.length ? h("small", null, ` (top ${discard[discard.length - 1]})`) : null,
    ),
  );
}

function speedZone(obs, seat, ctx) {
  const p = (obs.players && obs.players[seat]) || {};
  const speed = Array.isArray(p.speed) ? p.speed : [];
  const grade = Number.isInteger(p.speed_grade) && p.speed_grade >= 0 ? GRADES[Math.min(p.speed_grade, 5)] : "none";
  const items = speed.map((id) => smallCard(obs, id, ctx, seat === ctx.me ? `card:${id}@S` : null, " speed"));
  if (Array.isArray(p.gear)) items.push(...p.gear.map((id) => smallCard(obs, id, ctx, null, " closed")));
  else if (count(p.gear)) items.push(...backs(count(p.gear), "a closed (gear-changed) speed card"));
  const shift = p.speed_shift ? ` (shift ${p.speed_shift > 0 ? "+" : ""}${p.speed_shift})` : "";
  return h(
    "div",
    { class: "zone speed-zone" },
    h("div", { class: "zone-label" }, `Speed area — grade ${grade}${shift}`),
    h("div", { class: "cards" }, items.length ? items : h("span", { class: "empty" }, "empty")),
  );
}

function handZone(obs, seat, ctx) {
  const p = (obs.players && obs.players[seat]) || {};
  const mine = seat === ctx.me && !ctx.spectator;
  const row = [];
  if (Array.isArray(p.hand)) {
    for (const id of p.hand) row.push(smallCard(obs, id, ctx, mine ? `card:${id}` : null));
  } else {
    const known = Array.isArray(p.known_hand) ? p.known_hand : [];
    for (const id of known) row.push(smallCard(obs, id, ctx, null, " known"));
    row.push(...backs(Math.max(0, count(p.hand) - known.length), "a hidden hand card"));
  }
  if (!count(p.hand)) row.push(h("span", { class: "empty" }, "no cards"));
  const extra = [];
  if (Array.isArray(p.mulligan) && p.mulligan.length) extra.push(h("div", { class: "muted small" }, `set aside: ${p.mulligan.join(", ")}`));
  else if (count(p.mulligan)) extra.push(h("div", { class: "muted small" }, `${count(p.mulligan)} cards set aside`));
  if (Array.isArray(p.placement) && p.placement.length) {
    extra.push(h("div", { class: "cards" }, p.placement.map((id) => smallCard(obs, id, ctx, mine ? `card:${id}` : null, " caster"))));
  }
  const label = mine ? "Your hand" : `${seat} hand (${count(p.hand)})`;
  return h("div", { class: "zone hand-zone" }, h("div", { class: "zone-label" }, label), h("div", { class: "cards" }, row), extra);
}

function materialZone(obs, seat, ctx) {
  // the discard as clickable material choices (window "pick")
  const p = (obs.players && obs.players[seat]) || {};
  if (obs.window !== "pick" || seat !== ctx.me || !Array.isArray(p.discard)) return null;
  const ids = [...new Set(p.discard)];
  return h(
    "div",
    { class: "zone" },
    h("div", { class: "zone-label" }, "Your discard (choose the material)"),
    h("div", { class: "cards" }, ids.map((id) => smallCard(obs, id, ctx, `discard:${id}`))),
  );
}

function sideHeader(obs, seat, ctx) {
  const p = (obs.players && obs.players[seat]) || {};
  const tags = [];
  if (obs.first === seat) tags.push(h("span", { class: "tag turn", title: "first player this turn" }, "first"));
  if (obs.token === seat) tags.push(h("span", { class: "tag", title: "holds the tiebreak token" }, "token"));
  if (obs.to_move === seat && obs.window !== "over") tags.push(h("span", { class: "tag move" }, "to act"));
  if (obs.winner === seat) tags.push(h("span", { class: "tag win" }, "winner"));
  const limbo = Array.isArray(p.limbo) && p.limbo.length ? h("span", { class: "limbo" }, `being played: ${p.limbo.join(", ")}`) : null;
  const name = seat === ctx.me && !ctx.spectator ? `${seatLabel(seat, ctx.seats)} (you)` : seatLabel(seat, ctx.seats);
  return h("div", { class: "player-bar", "data-seat": seat }, h("span", { class: "seat-name" }, name), tags, limbo);
}

function side(obs, seat, ctx, mineBelow) {
  const field = h("div", { class: "dfield" }, areaNode(obs, seat, "BA1", ctx), areaNode(obs, seat, "BA2", ctx), idolNode(obs, seat, ctx));
  const parts = [sideHeader(obs, seat, ctx), resourceBar(obs, seat, ctx), speedZone(obs, seat, ctx)];
  const hand = handZone(obs, seat, ctx);
  const body = mineBelow ? [...parts, field, materialZone(obs, seat, ctx), hand] : [hand, ...parts, field];
  return h("div", { class: `dside${seat === ctx.me ? " me" : ""}`, "data-side": seat }, body);
}

function middle(obs) {
  const items = [];
  const attack = obs.attack;
  if (attack && typeof attack === "object") {
    const attackers = (attack.attackers || []).map((a) => (a ? slotWords(a) : "(gone)")).join(", ");
    const blocker = attack.blocker ? slotWords(attack.blocker) : "not chosen yet";
    const mod = attack.mod ? ` · attack mod ${attack.mod > 0 ? "+" : ""}${attack.mod}` : "";
    items.push(h("div", { class: "box-title" }, `${attack.player} attacks ${other(attack.player)}'s ${attack.area}`));
    items.push(h("div", null, `attackers: ${attackers} · blocker: ${blocker}${mod}`));
  }
  const triggers = Array.isArray(obs.triggers) ? obs.triggers : [];
  for (const t of triggers) if (t && typeof t === "object") items.push(h("div", null, `trigger waiting: ${t.player} ${t.source} (${t.ability})`));
  if (obs.cost_reduction) items.push(h("div", null, `cost reduction for the code being paid: ${obs.cost_reduction}`));
  const phase = obs.phase ? `${words(obs.phase)} phase` : "";
  const line = [obs.turn ? `Turn ${obs.turn}` : "", phase, obs.window ? windowName(obs.window) : ""].filter(Boolean).join(" · ");
  return h("div", { class: "dmiddle" }, h("div", { class: "phase-line" }, line), items.length ? h("div", { class: "attack-box" }, items) : null);
}

export function render(view, container, onAction) {
  const obs = (view && view.observation) || {};
  const spectator = !view.seat && !obs.viewer;
  const me = view.seat || obs.viewer || (view.perspective === "P2" ? "P2" : "P1");
  const them = other(me);
  const legal = Array.isArray(view.legal) && typeof onAction === "function" ? view.legal : [];
  const highlights = new Map();
  if (obs.attack && typeof obs.attack === "object") {
    for (const a of obs.attack.attackers || []) if (a) highlights.set(a, "attacking");
    if (obs.attack.blocker) highlights.set(obs.attack.blocker, "blocking");
  }
  lastRender = { view, container, onAction };
  const byKey = actionsByKey(legal, me);
  if (selection && (selection.version !== view.version || !byKey.has(selection.key))) selection = null;
  const { clicks, choosers } = clickTargets(byKey, me);
  const ctx = {
    me,
    spectator,
    seats: view.seats || {},
    byKey,
    clicks,
    choosers,
    onAction: legal.length ? onAction : null,
    highlights,
  };
  const board = h("div", { class: "board dreadnought" }, side(obs, them, ctx, false), middle(obs), selectionBar(obs, ctx), side(obs, me, ctx, true));
  replace(container, board);
}
