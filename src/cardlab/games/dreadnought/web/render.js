// Dreadnought board renderer.
// render(view, container, onAction, tools): each seat's two battle areas (caster with its HP count and up
// to two units) and idol area, its speed area, bursts, engraves, discard and hand; the viewer's
// side at the bottom (spectators see P1 at the bottom). Field places carry data-slot="P1:BA1.U1";
// places, areas and cards that stand for exactly one legal action carry data-action with the exact
// action string. A card or place with several actions (cast it, or a dummy into BA1 or BA2) is a
// "chooser": a click selects it, the battle areas it can be cast into are highlighted (a click there
// casts it into that area), and a bar lists all its actions, a dummy among them. A hand card the
// player cannot use, or may only put down as a dummy, asks the server why it cannot be cast
// (tools.explain). A BP that differs from the printed one shows the printed BP struck through.
// The option list beside the board (game.js) offers every legal action anyway, grouped by card
// (groupActions).
// Reads the observation shape of position.dump_observation: hidden zones are counts there.

import { h, replace, other, seatLabel, words, cardEntry, cardText, cardInfoButton, shortName, cardSpoken, zoneAttrs, settle } from "../common.js";

const GRADES = ["C", "B", "A", "A+", "A++", "A+++"];

// Cards are described by the server in a player's words (view.cards: name, stats, abilities, keywords);
// a stats line starts with the card's type ("unit · speed A · cost 0 · size S · BP 70 · red").
const cardType = (id) => (cardEntry(id) ? String(cardEntry(id).stats).split(" · ")[0] : "");
const cardName = (id) => (cardEntry(id) ? cardEntry(id).name : String(id ?? "hidden"));

/** The stats a card is chosen by, short enough for a small face (its type, speed, cost, size, BP). */
function faceStats(entry) {
  return String(entry.stats)
    .split(" · ")
    .filter((part) => !/^(red|yellow|blue|green|black|colorless)(\/|$)/.test(part))
    .join(" · ")
    .replace("speed ", "")
    .replace("size ", "");
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

/** The card standing on a field place ("P2:BA1.U1", or "BA1.C" of the viewer), or null. */
function cardAt(view, slot) {
  const obs = (view && view.observation) || {};
  const text = String(slot);
  const [seat, rest] = text.includes(":") ? text.split(":") : [view && view.seat, text];
  const p = seat && obs.players ? obs.players[seat] : null;
  if (!p || !rest) return null;
  if (rest === "IDOL") return p.idol || null;
  const [area, place] = rest.split(".");
  const block = p[area];
  if (!block) return null;
  if (place === "C") return block.caster || null;
  const units = Array.isArray(block.units) ? block.units : [];
  return units[Number(String(place).slice(1)) - 1] || null;
}

/** "R02 <its name> (P2 BA1 unit 1)": a place named by what stands on it. */
function placeWords(view, slot) {
  const standing = cardAt(view, slot);
  if (!standing) return slotWords(slot);
  const name = standing.dummy ? "a dummy" : standing.card ? cardName(standing.card) : "a card";
  return `${name} (${slotWords(slot)})`;
}

function cardWords(token) {
  const text = String(token);
  const fromSpeed = text.endsWith("@S");
  const id = fromSpeed ? text.slice(0, -2) : text;
  return `${cardName(id)}${fromSpeed ? " (speed area)" : ""}`;
}

export function actionLabel(action, view) {
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
      return `Target ${placeWords(view, a)}`;
    case "ATTACKER":
      return `Attacker: ${placeWords(view, a)}`;
    case "BLOCK":
      return `Block with ${placeWords(view, a)}`;
    case "MOVE":
      return `Move ${placeWords(view, a)}`;
    case "REMOVE":
      return `Remove ${placeWords(view, a)}`;
    case "USE":
      return a.endsWith("@S") ? `Use ${cardWords(a)}, ability ${Number(b) + 1}` : `Use ${placeWords(view, a)}, ability ${Number(b) + 1}`;
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
      return b ? `Dummy (face down) into ${b}: ${cardWords(a)}` : `Dummy (face down): ${cardWords(a)}`;
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

/** The order of what a card can do, in the option list and the selection bar: the normal play first. */
const VERB_ORDER = ["CAST", "PLAY", "USE", "SUB", "GEAR", "PLACE", "MULL", "MATERIAL", "DISCARD", "DUMMY"];
const verbRank = (action) => {
  const at = VERB_ORDER.indexOf(String(action).split(" ")[0]);
  return at < 0 ? VERB_ORDER.length : at;
};
const byVerb = (x, y) => verbRank(x) - verbRank(y) || String(x).localeCompare(String(y));

/** The legal actions grouped by the card (or place) they use, then by what to do with it, in a stable
 * order: hand cards in hand order, then the speed area, places on the field, and the turn's other choices. */
export function groupActions(legal, view) {
  const me = (view && view.seat) || "P1";
  const obs = (view && view.observation) || {};
  const hand = obs.players && obs.players[me] && Array.isArray(obs.players[me].hand) ? obs.players[me].hand : [];
  const groups = new Map();
  for (const [key, actions] of actionsByKey(legal, me)) {
    const [kind, ...rest] = key.split(":");
    const what = rest.join(":");
    let title = null;
    let rank = [3, 0, key];
    if (kind === "card") {
      const at = hand.indexOf(what);
      title = cardWords(what);
      rank = at >= 0 ? [0, at, what] : [1, 0, what];
    } else if (kind === "slot") {
      title = placeWords(view, what);
      rank = [2, 0, what];
    }
    groups.set(key, { key, title, rank, actions: [...actions].sort(byVerb) });
  }
  const loose = legal.filter((action) => ![...groups.values()].some((group) => group.actions.includes(action)));
  if (loose.length) groups.set("turn", { key: "turn", title: "This step", rank: [4, 0, ""], actions: loose });
  const order = (x, y) => x.rank[0] - y.rank[0] || x.rank[1] - y.rank[1] || String(x.rank[2]).localeCompare(String(y.rank[2]));
  return [...groups.values()].sort(order);
}

/** The areas a selected card may be cast into by a click on them (its CAST then asks where: D7.3). */
function castAreas(obs, id, me) {
  const type = cardType(id);
  if (type !== "unit" && type !== "idol") return [];
  const p = (obs.players && obs.players[me]) || {};
  const free = (area) => (Array.isArray(p[area] && p[area].units) ? p[area].units.filter(Boolean).length : 0) < 2;
  const areas = ["BA1", "BA2"].filter(free);
  if (type === "idol" && !p.idol) areas.push("IDOL");
  return areas;
}

// The card or board object picked first when it has several actions (#16): the board then offers
// the areas to cast it into, and a bar lists its other actions (a dummy among them). Kept across
// redraws of the same view version only.
let selection = null;
let lastRender = null;
// The area clicked to cast a card into: once the CAST is accepted and the game asks where, it goes there.
let castInto = null;

function select(key, byKeyboard = false) {
  selection = selection && selection.key === key ? null : { key, version: lastRender && lastRender.view.version };
  if (lastRender) render(lastRender.view, lastRender.container, lastRender.onAction, lastRender.tools);
  if (!byKeyboard || !lastRender) return;
  // with the keyboard, the focus follows: into the bar of the selected card's actions, or back to the card
  const board = lastRender.container;
  const next = selection ? board.querySelector(".choice-bar button") : board.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (next) next.focus();
}

/** Per key the action a click sends (keys with exactly one action, and a selection's cast areas),
 * and the keys with several actions, which a click selects. */
function clickTargets(byKey, obs, me) {
  const clicks = new Map();
  const choosers = new Set();
  for (const [key, actions] of byKey) {
    if (actions.length === 1) clicks.set(key, actions[0]);
    else choosers.add(key);
  }
  const chosen = selection ? byKey.get(selection.key) || [] : [];
  const cast = chosen.find((action) => action.startsWith("CAST "));
  const destinations = new Map();
  if (cast) for (const area of castAreas(obs, cast.split(" ")[1], me)) destinations.set(`area:${me}:${area}`, { cast, area });
  return { clicks, choosers, destinations };
}

function selectionBar(obs, ctx) {
  if (!selection || !ctx.onAction) return null;
  const actions = [...(ctx.byKey.get(selection.key) || [])].sort(byVerb);
  const [kind, ...rest] = selection.key.split(":");
  const what = kind === "card" ? cardWords(rest.join(":")) : placeWords(ctx.view, rest.join(":"));
  const words = kind === "card" ? rest.join(":").replace(/@S$/, "") : null;
  const key = selection.key;
  return h(
    "div",
    {
      class: "choice-bar",
      "data-selected": key,
      role: "group",
      "aria-label": `${what}: what to do`,
      onkeydown: (event) => event.key === "Escape" && select(key, true), // Escape closes the bar, back to the card
    },
    h("b", { "data-words": words && cardEntry(words) ? words : null }, `${what}: `),
    actions.map((action) =>
      h(
        "button",
        { type: "button", class: `choice${action.startsWith("CAST ") ? " primary" : ""}`, "data-action": action, onclick: () => ctx.onAction(action) },
        actionLabel(action, ctx.view),
      ),
    ),
    ctx.destinations.size ? h("span", { class: "muted" }, "or click a highlighted battle area to cast it there") : null,
    h(
      "button",
      { type: "button", class: "choice cancel", onclick: (event) => select(selection.key, event.detail === 0) }, // detail 0: a key
      "Cancel",
    ),
  );
}

function choosable(attrs, key, ctx) {
  if (!key || !ctx.onAction) return attrs;
  const destination = ctx.destinations.get(key);
  if (destination) {
    attrs.class += " clickable destination";
    attrs["data-action"] = destination.cast;
    attrs["data-cast-into"] = destination.area;
    return clickable(attrs, destination.cast, ctx, () => {
      castInto = { area: destination.area, version: ctx.view.version };
    });
  }
  const action = ctx.clicks.get(key);
  if (action) return clickable(attrs, action, ctx);
  if (!ctx.choosers.has(key)) return attrs;
  const choices = ctx.byKey.get(key);
  const chosen = selection && selection.key === key;
  attrs.class += ` clickable chooser${chosen ? " selected" : ""}`;
  attrs["data-choices"] = String(choices.length);
  attrs["data-key"] = key;
  attrs.role = "button";
  attrs.tabindex = "0";
  attrs["aria-expanded"] = chosen ? "true" : "false"; // selected: the bar below says in words what it is
  if (attrs["aria-label"]) attrs["aria-description"] = attrs["aria-label"];
  attrs["aria-label"] = `${choices.length} choices: ${choices.map((c) => actionLabel(c, ctx.view)).join("; ")}`;
  const why = ctx.explain ? withheldPlay(key, choices) : null;
  if (why) attrs["data-explain"] = why;
  const choose = (byKeyboard) => {
    select(key, byKeyboard);
    if (why && selection && selection.key === key) ctx.explain(why);
  };
  attrs.onclick = (event) => {
    event.stopPropagation();
    choose(false);
  };
  attrs.onkeydown = (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      choose(true);
    } else if (event.key === "Escape" && selection) {
      select(selection.key, true);
    }
  };
  return attrs;
}

/** A hand card that may go down as a dummy but not be cast or played now (too expensive, no room, not
 * its timing): its normal play, which a click on it asks the server about, so the player learns why
 * only the dummy is offered (issue #35: an unaffordable card says why). Null for any other key. */
function withheldPlay(key, choices) {
  const [kind, ...rest] = key.split(":");
  const id = rest.join(":");
  if (kind !== "card" || id.endsWith("@S") || !cardType(id)) return null;
  if (!choices.some((a) => a.startsWith("DUMMY ")) || choices.some((a) => /^(CAST|PLAY) /.test(a))) return null;
  return `${cardType(id) === "code" ? "PLAY" : "CAST"} ${id}`;
}

function clickable(attrs, action, ctx, before = null) {
  if (!action || !ctx.onAction) return attrs;
  const act = () => {
    if (before) before();
    ctx.onAction(action);
  };
  attrs.class += " clickable";
  attrs["data-action"] = action;
  attrs.role = "button";
  attrs.tabindex = "0";
  if (attrs["aria-label"]) attrs["aria-description"] = attrs["aria-label"]; // what stands there, in words
  attrs["aria-label"] = actionLabel(action, ctx.view);
  attrs.onclick = (event) => {
    event.stopPropagation();
    act();
  };
  attrs.onkeydown = (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      act();
    }
  };
  return attrs;
}

/** A hand card the player cannot use now: a click asks the server why (its cost, its timing...). */
function explainable(attrs, id, ctx) {
  if (!ctx.explain || !ctx.onAction) return attrs;
  attrs.class += " inert";
  attrs["data-explain"] = `${cardType(id) === "code" ? "PLAY" : "CAST"} ${id}`;
  attrs.role = "button";
  attrs.tabindex = "0";
  attrs["aria-description"] = attrs["aria-label"];
  attrs["aria-label"] = `${cardName(id)}: cannot be used now, ask why`;
  attrs.onclick = () => ctx.explain(attrs["data-explain"]);
  attrs.onkeydown = (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      ctx.explain(attrs["data-explain"]);
    }
  };
  return attrs;
}

// A card's or a place's state in words (its ring's colour alone says it to nobody who cannot see it).
const MARKS = { attacking: "attacks", blocking: "blocks" };
const CARD_MARKS = { " known": "known", " closed": "closed" };

function count(value) {
  if (Array.isArray(value)) return value.length;
  return Number.isInteger(value) ? value : 0;
}

function smallCard(obs, id, ctx, key, extraClass = "", explain = false) {
  const entry = cardEntry(id);
  const mark = CARD_MARKS[extraClass] || null;
  const attrs = {
    class: `dcard${extraClass}`,
    "data-card": id,
    "data-words": entry ? id : null,
    "data-mark": mark,
    role: "group",
    "aria-label": `${cardSpoken(id, cardName(id))}${mark ? ` (${mark})` : ""}`,
  };
  choosable(attrs, key, ctx);
  if (explain && !attrs["data-action"] && !attrs["data-choices"]) explainable(attrs, id, ctx);
  return h(
    "div",
    attrs,
    entry ? cardInfoButton(id) : null,
    mark ? h("span", { class: "mark" }, mark) : null,
    h("div", { class: "uid" }, id),
    entry ? h("div", { class: "uname" }, shortName(id, entry)) : null,
    entry ? h("div", { class: "face-text" }, cardText(entry, { stats: faceStats(entry) })) : null,
  );
}

function backs(n, label) {
  const out = [];
  for (let i = 0; i < Math.min(n, 12); i++) out.push(h("div", { class: "dcard back", title: label, role: "img", "aria-label": label }));
  if (n > 12) out.push(h("span", { class: "more" }, `+${n - 12}`));
  return out;
}

/** A unit (or a dummy) on a place, in words: its card and what it does, its BP now, its state. */
function unitSaid(unit) {
  if (unit.dummy) return `a dummy (face down)${unit.card ? `: ${cardName(unit.card)}` : ""}`;
  const entry = cardEntry(unit.card);
  const match = entry ? /\bBP (\d+)/.exec(String(entry.stats)) : null;
  const parts = [cardSpoken(unit.card, cardName(unit.card))];
  if (Number.isFinite(unit.bp)) parts.push(`BP now ${unit.bp}${match && Number(match[1]) !== unit.bp ? ` (printed ${match[1]})` : ""}`);
  if (unit.checked) parts.push("checked");
  if (unit.moved) parts.push("moved");
  return parts.join("; ");
}

function unitNode(obs, seat, slot, unit, ctx) {
  const key = `slot:${seat}:${slot}`;
  const mark = MARKS[ctx.highlights.get(`${seat}:${slot}`)] || null;
  const attrs = {
    class: "dslot",
    "data-slot": `${seat}:${slot}`,
    title: `${seat}:${slot}`,
    "data-mark": mark,
    role: "group",
    "aria-label": `${slotWords(`${seat}:${slot}`)}${mark ? ` (${mark})` : ""}: ${unit ? unitSaid(unit) : "empty"}`,
  };
  if (ctx.highlights.has(`${seat}:${slot}`)) attrs.class += ` ${ctx.highlights.get(`${seat}:${slot}`)}`;
  choosable(attrs, key, ctx);
  if (!unit) return h("div", { ...attrs, class: `${attrs.class} vacant` }, h("span", { class: "slot-name" }, slot.split(".").pop()));
  const dummy = !!unit.dummy;
  const flags = [];
  const enchants = Array.isArray(unit.enchants) ? unit.enchants : [];
  const boosts = enchants.filter((e) => e && e.kind === "boost").length;
  const weakens = enchants.length - boosts;
  if (boosts) flags.push(h("span", { class: "boost kw", "data-term": "boost" }, `+${boosts} boost`));
  if (weakens) flags.push(h("span", { class: "weaken kw", "data-term": "weaken" }, `-${weakens} weaken`));
  const shields = unit.shields ?? unit.shield;
  if (shields) flags.push(h("span", { class: "shield kw", "data-term": "shield" }, `shield ${shields}`));
  if (unit.bp_mod) flags.push(h("span", { title: "BP change until end of turn" }, `${unit.bp_mod > 0 ? "+" : ""}${unit.bp_mod} BP`));
  if (Array.isArray(unit.attached) && unit.attached.length) {
    flags.push(...unit.attached.map((c) => h("span", { "data-words": cardEntry(c) ? c : null }, `+${cardName(c)}`)));
  }
  if (unit.moved) flags.push(h("span", { class: "muted" }, "moved"));
  const entry = dummy ? null : cardEntry(unit.card);
  return h(
    "div",
    { ...attrs, class: `${attrs.class} unit-slot${unit.checked ? " checked" : ""}${dummy ? " dummy" : ""}` },
    mark ? h("span", { class: "mark" }, mark) : null,
    h(
      "div",
      { class: "dunit", "data-words": entry ? unit.card : null },
      unit.checked ? h("span", { class: "state-mark kw", "data-term": "check" }, "checked") : null,
      dummy ? h("div", { class: "uid kw", "data-term": "dummy" }, unit.card ? `dummy (${unit.card})` : "dummy") : h("div", { class: "uid" }, unit.card),
      entry ? h("div", { class: "uname" }, shortName(unit.card, entry)) : null,
      bpNode(unit, entry),
    ),
    flags.length ? h("div", { class: "uflags" }, flags) : null,
  );
}

/** A unit's BP now; when boosts, weakens or effects changed it, marked "changed" with the printed BP
 * struck through beside it: "BP 90 ~~70~~". */
function bpNode(unit, entry) {
  const match = entry ? /\bBP (\d+)/.exec(String(entry.stats)) : null;
  const printed = match ? Number(match[1]) : null;
  const now = Number.isFinite(unit.bp) ? unit.bp : null;
  const changed = printed !== null && now !== null && now !== printed;
  return h(
    "div",
    { class: `bp${changed ? ` changed ${now > printed ? "up" : "down"}` : ""}`, title: changed ? `printed BP ${printed}` : "current BP" },
    `BP ${now ?? "?"}`,
    changed ? h("s", { class: "printed", "aria-label": `printed ${printed}` }, String(printed)) : null,
  );
}

function casterNode(obs, seat, area, block, ctx) {
  const caster = block && block.caster;
  const slot = `${area}.C`;
  const hp = count(block.hp);
  const mark = MARKS[ctx.highlights.get(`${seat}:${slot}`)] || null;
  const state = caster ? `${cardSpoken(caster.card, cardName(caster.card))}; ${hp === 0 ? "down, no HP left" : `HP ${hp}`}${caster.checked ? "; checked" : ""}` : "no caster yet";
  const attrs = {
    class: "dslot caster-slot",
    "data-slot": `${seat}:${slot}`,
    title: `${seat}:${slot}`,
    "data-mark": mark,
    role: "group",
    "aria-label": `${slotWords(`${seat}:${slot}`)}${mark ? ` (${mark})` : ""}: ${state}`,
  };
  if (ctx.highlights.has(`${seat}:${slot}`)) attrs.class += ` ${ctx.highlights.get(`${seat}:${slot}`)}`;
  choosable(attrs, `slot:${seat}:${slot}`, ctx);
  if (!caster) return h("div", { ...attrs, class: `${attrs.class} vacant` }, "no caster yet");
  const entry = cardEntry(caster.card);
  const pips = [];
  for (let k = 0; k < Math.min(hp, 10); k++) pips.push(h("span", { class: "hp-pip" }));
  return h(
    "div",
    { ...attrs, class: `${attrs.class}${caster.checked ? " checked" : ""}${hp === 0 ? " down" : ""}` },
    mark ? h("span", { class: "mark" }, mark) : null,
    h(
      "div",
      { class: "dcaster", "data-words": entry ? caster.card : null },
      caster.checked ? h("span", { class: "state-mark kw", "data-term": "check" }, "checked") : null,
      h("div", { class: "uid" }, `★ ${caster.card}`),
      entry ? h("div", { class: "uname" }, shortName(caster.card, entry)) : null,
    ),
    h(
      "div",
      { class: "hp", title: "HP cards left (each absorbs 50 attack damage)" },
      hp === 0 ? h("span", { class: "down-mark kw", "data-term": "down" }, "DOWN") : [h("span", { class: "kw", "data-term": "HP" }, "HP"), ` ${hp} `, pips],
    ),
    caster.arms ? h("div", { class: "arms", "data-words": cardEntry(caster.arms) ? caster.arms : null }, `arms: ${cardName(caster.arms)}`) : null,
    caster.shield ? h("div", { class: "shield kw", "data-term": "shield" }, `shield ${caster.shield}`) : null,
  );
}

function areaNode(obs, seat, area, ctx) {
  const p = (obs.players && obs.players[seat]) || {};
  const block = p[area] || { caster: null, hp: 0, units: [] };
  const units = Array.isArray(block.units) ? block.units : [];
  const attack = obs.attack;
  const attacked = attack && attack.player !== seat && attack.area === area;
  const attrs = zoneAttrs(
    { class: "barea", "data-area": `${seat}:${area}`, "data-mark": attacked ? "attacked" : null },
    `${seat === ctx.me && !ctx.spectator ? "Your" : `${seat}'s`} battle area ${area.slice(2)} (${area})${attacked ? ", attacked" : ""}`,
  );
  if (attacked) attrs.class += " attacked";
  choosable(attrs, `area:${seat}:${area}`, ctx);
  return h(
    "div",
    attrs,
    h("div", { class: "area-name" }, area, attacked ? h("span", { class: "mark" }, "attacked") : null),
    casterNode(obs, seat, area, block, ctx),
    h("div", { class: "units" }, [0, 1].map((k) => unitNode(obs, seat, `${area}.U${k + 1}`, units[k] || null, ctx))),
  );
}

function idolNode(obs, seat, ctx) {
  const p = (obs.players && obs.players[seat]) || {};
  const attrs = zoneAttrs(
    { class: "barea idol-area", "data-area": `${seat}:IDOL` },
    `${seat === ctx.me && !ctx.spectator ? "Your" : `${seat}'s`} idol area`,
  );
  choosable(attrs, `area:${seat}:IDOL`, ctx);
  return h("div", attrs, h("div", { class: "area-name" }, "IDOL"), unitNode(obs, seat, "IDOL", p.idol || null, ctx));
}

function resourceBar(obs, seat, ctx) {
  const p = (obs.players && obs.players[seat]) || {};
  const bursts = Array.isArray(p.bursts) ? p.bursts : [];
  const checked = bursts.filter((b) => b && b.checked).length;
  const engraves = Array.isArray(p.engraves) ? p.engraves : [];
  const discard = Array.isArray(p.discard) ? p.discard : [];
  const burstAttrs = { class: "res bursts" };
  choosable(burstAttrs, `bursts:${seat}`, ctx);
  const engraveAttrs = { class: "res engraves" };
  choosable(engraveAttrs, `engraves:${seat}`, ctx);
  return h(
    "div",
    { class: "resources" },
    h("span", burstAttrs, h("span", { class: "kw", "data-term": "burst" }, "bursts"), ` ${bursts.length - checked}`, h("small", null, checked ? ` (+${checked} checked)` : "")),
    h(
      "span",
      engraveAttrs,
      h("span", { class: "kw", "data-term": "engrave" }, "engraves"),
      " ",
      engraves.length ? engraves.map((e) => h("span", { class: `eng${e.checked ? " checked" : ""}`, "data-words": cardEntry(e.card) ? e.card : null }, e.card)) : "-",
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
    zoneAttrs({ class: "zone speed-zone" }, `${seat === ctx.me && !ctx.spectator ? "Your" : `${seat}'s`} speed area, grade ${grade}`),
    h("div", { class: "zone-label" }, h("span", { class: "kw", "data-term": "speed" }, "Speed"), ` ${grade}${shift}`),
    h("div", { class: "cards" }, items.length ? items : h("span", { class: "empty" }, "empty")),
  );
}

function handZone(obs, seat, ctx) {
  const p = (obs.players && obs.players[seat]) || {};
  const mine = seat === ctx.me && !ctx.spectator;
  const row = [];
  if (Array.isArray(p.hand)) {
    for (const id of p.hand) row.push(smallCard(obs, id, ctx, mine ? `card:${id}` : null, "", mine));
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
  return h(
    "div",
    zoneAttrs({ class: `zone hand-zone${mine ? " mine" : ""}`, "data-zone": mine ? "hand" : "opponent-hand" }, `${mine ? "Your" : `${seat}'s`} hand, ${count(p.hand)} cards`),
    h("div", { class: "zone-label" }, label),
    h("div", { class: "cards" }, row),
    extra,
  );
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
  const limbo = Array.isArray(p.limbo) && p.limbo.length ? h("span", { class: "limbo" }, `being played: ${p.limbo.map(cardName).join(", ")}`) : null;
  const name = seat === ctx.me && !ctx.spectator ? `${seatLabel(seat, ctx.seats)} (you)` : seatLabel(seat, ctx.seats);
  return h("div", { class: "player-bar", "data-seat": seat }, h("span", { class: "seat-name" }, name), tags, resourceBar(obs, seat, ctx), limbo);
}

/** One player's side: the opponent's (above) reads hand, header, speed area, field, so that its field
 * meets the player's; the player's reads field, header, speed area and hand. */
function side(obs, seat, ctx, mineBelow) {
  const field = h(
    "div",
    zoneAttrs({ class: "dfield", "data-zone": mineBelow ? "field" : "opponent-front" }, `${mineBelow && !ctx.spectator ? "Your" : `${seat}'s`} field`),
    areaNode(obs, seat, "BA1", ctx),
    areaNode(obs, seat, "BA2", ctx),
    idolNode(obs, seat, ctx),
  );
  const hand = handZone(obs, seat, ctx);
  const info = h("div", { class: "side-info" }, sideHeader(obs, seat, ctx), speedZone(obs, seat, ctx));
  const body = mineBelow ? [field, info, materialZone(obs, seat, ctx), hand] : [hand, info, field];
  return h("div", { class: `dside${seat === ctx.me ? " me" : ""}`, "data-side": seat }, body);
}

function middle(obs, view) {
  const items = [];
  const attack = obs.attack;
  if (attack && typeof attack === "object") {
    const attackers = (attack.attackers || []).map((a) => (a ? placeWords(view, a) : "(gone)")).join(", ");
    const blocker = attack.blocker ? placeWords(view, attack.blocker) : "not chosen yet";
    const mod = attack.mod ? ` · attack bonus ${attack.mod > 0 ? "+" : ""}${attack.mod}` : "";
    items.push(h("div", { class: "box-title" }, `${attack.player} attacks ${other(attack.player)}'s ${attack.area}`));
    items.push(h("div", null, `attackers: ${attackers} · blocker: ${blocker}${mod}`));
  }
  const triggers = Array.isArray(obs.triggers) ? obs.triggers : [];
  for (const t of triggers) if (t && typeof t === "object") items.push(h("div", null, `trigger waiting: ${t.player} ${cardName(t.source)} (${words(t.ability)})`));
  if (obs.cost_reduction) items.push(h("div", null, `cost reduction for the code being paid: ${obs.cost_reduction}`));
  return items.length ? h("div", { class: "dmiddle" }, h("div", { class: "attack-box" }, items)) : null;
}

/** After a click on an area to cast a card there: once the game asks where (D7.3), answer it. */
function followCast(view, onAction) {
  const pending = castInto;
  castInto = null;
  const obs = view.observation || {};
  const legal = Array.isArray(view.legal) ? view.legal : [];
  if (!pending || Number(view.version) !== Number(pending.version) + 1 || obs.window !== "dest") return;
  const action = `TO ${pending.area}`;
  if (!legal.includes(action)) return;
  // The page may still be busy with the cast's own answer (onAction then returns false): try again.
  const attempt = async (left) => {
    if (!lastRender || lastRender.view.version !== view.version) return;
    if ((await onAction(action)) === false && left > 0) setTimeout(() => attempt(left - 1), 100);
  };
  setTimeout(() => attempt(20), 0);
}

export function render(view, container, onAction, tools = {}) {
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
  if (castInto && lastRender && lastRender.view.version !== view.version && legal.length) followCast(view, onAction);
  lastRender = { view, container, onAction, tools };
  const byKey = actionsByKey(legal, me);
  if (selection && (selection.version !== view.version || !byKey.has(selection.key))) selection = null;
  const { clicks, choosers, destinations } = clickTargets(byKey, obs, me);
  const ctx = {
    me,
    spectator,
    seats: view.seats || {},
    byKey,
    clicks,
    choosers,
    destinations,
    onAction: legal.length ? onAction : null,
    explain: legal.length ? tools.explain : null,
    highlights,
    view,
  };
  const board = h("div", { class: "board dreadnought" }, side(obs, them, ctx, false), middle(obs, view), selectionBar(obs, ctx), side(obs, me, ctx, true));
  replace(container, board);
  settle(container);
}
