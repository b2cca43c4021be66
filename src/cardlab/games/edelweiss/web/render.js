// Arcana Fight! Edelweiss board renderer.
// render(view, container, onAction, tools): draws view.observation into container; when onAction is a
// function and view.legal is non-empty, cards that stand for a legal action become clickable
// (they carry data-action with the exact action string, like the buttons in #legal), and a hand card
// that does not asks the server why (tools.explain). Cards and skills explain themselves on hover.
// Accepts both the observation shape (hand_size, hand_complete, deck_size) and the full
// position shape (E14.5: complete hands, deck list) used by finished replays.

import { h, replace, other, seatLabel, words, cardEntry, cardInfoButton, term, cardSpoken, zoneAttrs, settle } from "../common.js";

export const SUITS = { S: "♠", H: "♥", C: "♣", D: "♦" };
const SUIT_NAMES = { S: "spade", H: "heart", C: "club", D: "diamond" };
const RED = new Set(["H", "D"]);

export const CHARACTERS = {
  GARU: { name: "Garu Nowing", suits: "SH" },
  ACCELA: { name: "Accela Draco", suits: "HC" },
  RAIHA: { name: "Raiha Starwatcher", suits: "SC" },
  VIRIDIAN: { name: "Viridian Lagartija Lacerta", suits: "SD" },
  VERDI: { name: "Verdi Kirakatl", suits: "HD" },
  EAGLE: { name: "Washinomiya Eagle", suits: "CD" },
};

// The skill of each suit (E8); what it does comes from the server's glossary (the popover).
const SKILL_NAMES = { S: "Guardian", H: "Buddy Summoner", C: "Wizard", D: "Poison Bind" };

const WINDOW_NAMES = {
  draw: "draw step",
  main: "main step",
  special_summon: "Buddy Summoner",
  attack: "attack phase",
  intercept: "intercept phase",
  defense: "defense phase",
  counter: "counter phase",
  pursuit: "pursuit phase",
  over: "game over",
};

export function windowName(window) {
  return WINDOW_NAMES[window] || words(window);
}

/** Parse "10H", "7S:T" -> {rank, suit, tapped, base}. Unknown text gives suit "?". */
export function parseCard(name) {
  const text = String(name ?? "");
  const [base, orientation] = text.split(":");
  const suit = base.slice(-1).toUpperCase();
  return {
    base,
    rank: base.slice(0, -1),
    suit: SUITS[suit] ? suit : "?",
    tapped: orientation === "T",
  };
}

/** A card as it is said aloud: "10 of hearts, tapped" (suit names, not symbols a screen reader may skip). */
export function cardSaid(name) {
  const c = parseCard(name);
  const rank = { A: "ace", J: "jack", Q: "queen", K: "king" }[c.rank] || c.rank;
  return `${rank} of ${SUIT_NAMES[c.suit] || "?"}s${c.tapped ? ", tapped" : ""}`;
}

// A highlighted card's part in the attack, in words (its ring's colour alone says it to nobody who cannot see it).
const MARKS = { attacking: "attacks", blocking: "blocks", pursuing: "pursues", revealed: "revealed" };

export function cardText(name) {
  const c = parseCard(name);
  return `${c.rank}${SUITS[c.suit] || c.suit}${c.tapped ? " (tapped)" : ""}`;
}

/** Friendly label for an action string (buttons show this plus the raw string). */
export function actionLabel(action) {
  const [verb, arg] = String(action).split(" ");
  const suit = arg && SUITS[arg] ? SUITS[arg] : arg;
  switch (verb) {
    case "SUMMON":
      return `Summon ${suit}`;
    case "SPECIAL_SUMMON":
      return "Special summon ♥";
    case "ATTACK":
      return "Attack ♠";
    case "END_TURN":
      return "End turn";
    case "LIONHEART":
      return "Lionheart";
    case "GUARD":
      return arg === "D" ? "Guard ♦ (counter)" : `Guard ${suit}`;
    case "BLOCK":
      return "Block ♥";
    case "FIELD_GUARD":
      return `Field guard ${suit}`;
    case "NO_DEFENSE":
      return "No defense (lose)";
    case "DISCARD_SPADE":
      return "Discard attacking ♠";
    case "DISCARD_CLUB":
      return "Discard a ♣";
    case "PROTECT":
      return "Protect (tap ♣)";
    case "PURSUIT":
      return "Pursuit (tap ♣)";
    case "PASS":
      return "Pass";
    default:
      return String(action);
  }
}

function cardNode(name, { action = null, onAction = null, highlight = "", title = "", explain = null } = {}) {
  const c = parseCard(name);
  const classes = ["card", `suit-${c.suit}`];
  if (RED.has(c.suit)) classes.push("red");
  if (c.tapped) classes.push("tapped");
  if (highlight) classes.push(highlight);
  const words = cardEntry(c.base);
  const mark = MARKS[highlight] || null;
  const said = `${cardSaid(name)}${mark ? ` (${mark})` : ""}`;
  const attrs = {
    class: classes.join(" "),
    "data-card": c.base,
    "data-words": words ? c.base : null, // what the card does, in the popover
    "data-mark": mark,
    title: words && !title ? null : title || `${c.rank} of ${SUIT_NAMES[c.suit] || "?"}s${c.tapped ? ", tapped" : ""}`,
    role: "group",
    "aria-label": words ? `${said}. ${cardSpoken(c.base)}` : said,
  };
  if (!(action && onAction) && explain) {
    // a hand card that cannot be played now: a click (or Enter) asks the server why
    attrs.class += " inert";
    attrs["data-explain"] = explain.action;
    attrs.role = "button";
    attrs.tabindex = "0";
    attrs["aria-label"] = `${said}: not playable now, ask why`;
    if (words) attrs["aria-description"] = cardSpoken(c.base);
    attrs.onclick = () => explain.ask(explain.action);
    attrs.onkeydown = (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        explain.ask(explain.action);
      }
    };
  }
  if (action && onAction) {
    attrs.class += " clickable";
    attrs["data-action"] = action;
    attrs.role = "button";
    attrs.tabindex = "0";
    attrs["aria-label"] = `${actionLabel(action)}: ${said}`;
    if (words) attrs["aria-description"] = cardSpoken(c.base);
    attrs.onclick = () => onAction(action);
    attrs.onkeydown = (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        onAction(action);
      }
    };
  }
  return h(
    "div",
    attrs,
    h("span", { class: "rank" }, c.rank),
    h("span", { class: "pip" }, SUITS[c.suit] || "?"),
    words ? cardInfoButton(c.base) : null,
  );
}

function backNode(title = "hidden card") {
  return h("div", { class: "card back", title, role: "img", "aria-label": title });
}

function pile(label, count, child) {
  return h("div", { class: "pile" }, child, h("div", { class: "pile-label" }, `${label}: ${count}`));
}

/** Index of the oldest field card of `suit` with the given orientation, or -1 (E14.2). */
function oldest(field, suit, tapped) {
  return field.findIndex((entry) => {
    const c = parseCard(entry);
    return c.suit === suit && c.tapped === tapped;
  });
}

/** Which hand cards / field cards stand for which legal action (only unambiguous ones). */
function clickTargets(legal, me, obs) {
  const hand = new Map(); // suit -> action
  const field = new Map(); // index -> Set(actions)
  const add = (index, action) => {
    if (index < 0) return;
    if (!field.has(index)) field.set(index, new Set());
    field.get(index).add(action);
  };
  const myField = Array.isArray(me.field) ? me.field : [];
  for (const action of legal) {
    const [verb, arg] = String(action).split(" ");
    if ((verb === "SUMMON" || verb === "GUARD") && arg) hand.set(arg, action);
    else if (verb === "SPECIAL_SUMMON") hand.set("H", action);
    else if (verb === "ATTACK") add(oldest(myField, "S", false), action);
    else if (verb === "BLOCK") add(oldest(myField, "H", false), action);
    else if (verb === "FIELD_GUARD" && arg) add(oldest(myField, arg, true), action);
    else if (["LIONHEART", "DISCARD_CLUB", "PROTECT", "PURSUIT"].includes(verb)) add(oldest(myField, "C", false), action);
    else if (verb === "DISCARD_SPADE" && obs.attack && obs.attack.spade) {
      add(myField.findIndex((e) => parseCard(e).base === obs.attack.spade), action);
    }
  }
  const unique = new Map();
  for (const [index, actions] of field) if (actions.size === 1) unique.set(index, [...actions][0]);
  return { hand, field: unique };
}

function characterBox(obs, seat) {
  const config = obs.config || {};
  const chars = config.characters;
  if (!chars || typeof chars !== "object" || !chars[seat]) return null;
  const id = String(chars[seat]);
  const info = CHARACTERS[id];
  const skills = info ? [...info.suits] : [];
  return h(
    "div",
    { class: "character", "data-character": id },
    h("span", { class: "char-name", "data-words": cardEntry(id) ? id : null, tabindex: cardEntry(id) ? "0" : null }, info ? info.name : id),
    skills.map((suit) =>
      h("span", { class: `skill${RED.has(suit) ? " red" : ""}` }, `${SUITS[suit]} `, term(SKILL_NAMES[suit])),
    ),
  );
}

function handRow(player, { visible, action, onAction, spectator, explain }) {
  const known = Array.isArray(player.hand) ? player.hand : [];
  const positionShape = player.hand_size === undefined && Array.isArray(player.hand);
  const size = Number.isInteger(player.hand_size) ? player.hand_size : known.length;
  const row = h("div", { class: "cards hand" });
  if (!visible && spectator && !positionShape && known.length === 0) {
    for (let i = 0; i < size; i++) row.appendChild(backNode());
  } else {
    for (const name of known) {
      const suit = parseCard(name).suit;
      const act = action ? action.get(suit) : null;
      // a finished game's replay shows a spectator both full hands: those are not "revealed" cards
      const fullView = spectator && known.length === size;
      const revealed = !visible && !positionShape && !fullView;
      row.appendChild(
        cardNode(name, {
          action: act,
          onAction,
          highlight: revealed ? "revealed" : "",
          title: revealed ? `${cardText(name)} — revealed (Diamond Dust)` : "",
          explain: visible && explain ? { action: explain.verb(suit), ask: explain.ask } : null,
        }),
      );
    }
    for (let i = known.length; i < size; i++) row.appendChild(backNode());
  }
  if (size === 0) row.appendChild(h("span", { class: "empty" }, "no cards"));
  return row;
}

function fieldRow(player, { attack, clicks, onAction, owner, obs }) {
  const field = Array.isArray(player.field) ? player.field : [];
  const row = h("div", { class: "cards field" });
  const attackerSide = owner === obs.turn_player;
  field.forEach((entry, index) => {
    const c = parseCard(entry);
    let highlight = "";
    if (attack && attackerSide && c.base === attack.spade) highlight = "attacking";
    if (attack && !attackerSide && c.base === attack.blocker) highlight = "blocking";
    if (attack && attackerSide && c.base === attack.pursuit_club) highlight = "pursuing";
    row.appendChild(cardNode(entry, { action: clicks ? clicks.get(index) : null, onAction, highlight }));
  });
  if (field.length === 0) row.appendChild(h("span", { class: "empty" }, "empty field"));
  return row;
}

function attackBox(obs) {
  const a = obs.attack;
  if (!a || typeof a !== "object") return null;
  const steps = [h("li", null, `${obs.turn_player || "?"} attacks with `, h("b", null, cardText(a.spade)))];
  if (a.defense) {
    const how = {
      guard: `guard with ${a.guard_card ? cardText(a.guard_card) : "a card"}`,
      field_guard: `field guard with ${a.guard_card ? cardText(a.guard_card) : "a field card"}`,
      block: `block with ${a.blocker ? cardText(a.blocker) : "a heart"}`,
      none: "no defense",
    }[a.defense] || words(a.defense);
    steps.push(h("li", null, `Defense: ${how}`));
  } else {
    steps.push(h("li", { class: "pending" }, "Defense: not chosen yet"));
  }
  if (a.counter) steps.push(h("li", { class: "counter" }, "Counter caused!"));
  if (a.pursuit_club) steps.push(h("li", null, `Pursuit with ${cardText(a.pursuit_club)}`));
  return h("div", { class: "attack-box", id: "attack" }, h("div", { class: "box-title" }, "Attack sequence"), h("ul", null, steps));
}

export function render(view, container, onAction, tools = {}) {
  const obs = (view && view.observation) || {};
  const players = obs.players || {};
  const spectator = !view.seat && !obs.player;
  const me = view.seat || obs.player || (view.perspective === "P2" ? "P2" : "P1");
  const them = other(me);
  const legal = Array.isArray(view.legal) && typeof onAction === "function" ? view.legal : [];
  const mine = players[me] || {};
  const theirs = players[them] || {};
  const clicks = legal.length ? clickTargets(legal, mine, obs) : { hand: new Map(), field: new Map() };
  const act = legal.length ? onAction : null;
  // a hand card with no action now: guard with it while defending, else summon it (E4, E7)
  const explain =
    legal.length && tools.explain ? { ask: tools.explain, verb: (suit) => `${obs.window === "defense" ? "GUARD" : "SUMMON"} ${suit}` } : null;
  const discard = Array.isArray(obs.discard) ? obs.discard : [];
  const deckSize = Number.isInteger(obs.deck_size) ? obs.deck_size : Array.isArray(obs.deck) ? obs.deck.length : "?";
  const seats = view.seats || {};

  const side = (seat, player, isMe) => {
    const turnTag = obs.turn_player === seat ? h("span", { class: "tag turn" }, "turn player") : null;
    const moveTag = obs.to_move === seat && obs.window !== "over" ? h("span", { class: "tag move" }, "to act") : null;
    const winTag = obs.winner === seat ? h("span", { class: "tag win" }, "winner") : null;
    const size = Number.isInteger(player.hand_size) ? player.hand_size : Array.isArray(player.hand) ? player.hand.length : 0;
    const header = h(
      "div",
      { class: "side-header" },
      h("span", { class: "seat-name" }, isMe && !spectator ? `${seatLabel(seat, seats)} (you)` : seatLabel(seat, seats)),
      turnTag,
      moveTag,
      winTag,
      h("span", { class: "counts" }, `hand ${size} · field ${(player.field || []).length}`),
      characterBox(obs, seat),
    );
    const owner = isMe && !spectator ? "Your" : `${seat}'s`;
    const hand = h(
      "div",
      zoneAttrs({ class: `zone hand-zone${isMe ? " mine" : ""}`, "data-zone": isMe && !spectator ? "hand" : "opponent-hand" }, `${owner} hand, ${size} cards`),
      h("div", { class: "zone-label" }, isMe && !spectator ? "Your hand" : "Hand"),
      handRow(player, {
        visible: isMe && !spectator,
        action: isMe ? clicks.hand : null,
        onAction: act,
        spectator,
        explain: isMe ? explain : null,
      }),
    );
    const field = h(
      "div",
      zoneAttrs({ class: "zone field-zone", "data-zone": isMe ? "field" : "opponent-front" }, `${owner} field, oldest first`),
      h("div", { class: "zone-label" }, "Field (oldest first)"),
      fieldRow(player, { attack: obs.attack, clicks: isMe ? clicks.field : null, onAction: act, owner: seat, obs }),
    );
    return h(
      "section",
      zoneAttrs({ class: `side ${isMe ? "me" : "opp"}`, "data-seat": seat }, isMe && !spectator ? `Your side (${seat})` : `${seat}'s side`),
      isMe ? [header, field, hand] : [header, hand, field],
    );
  };

  const recent = discard.slice(-6);
  const table = h(
    "section",
    { class: "table-zone" },
    pile("Deck", deckSize, h("div", { class: "card back deck", title: "shared deck", role: "img", "aria-label": `shared deck, ${deckSize} cards` })),
    h(
      "div",
      zoneAttrs({ class: "discard" }, `Discard pile, ${discard.length} cards${discard.length > recent.length ? ", the latest shown" : ""}`),
      h("div", { class: "zone-label" }, `Discard: ${discard.length}${discard.length > recent.length ? " (latest shown)" : ""}`),
      h("div", { class: "cards discard-cards" }, recent.length ? recent.map((c) => cardNode(c)) : h("span", { class: "empty" }, "empty")),
    ),
    attackBox(obs),
    obs.config && obs.config.deck === "skills"
      ? h("div", { class: "standard" }, term("standard", "Standard"), `: ${obs.config.standard === "accel2" ? "Accel 2" : "Symbolic"}`)
      : null,
  );

  replace(
    container,
    h("div", { class: "board edelweiss" }, side(them, theirs, false), table, side(me, mine, true)),
  );
  settle(container);
}
