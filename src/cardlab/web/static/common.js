// Shared helpers for the cardlab pages. Every piece of text goes into the DOM through
// textContent / attributes (never innerHTML), so server strings cannot inject markup.

/** Build an element: h("div", {class: "x", "data-action": "ATTACK", onclick: fn}, child, "text", ...). */
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on") && typeof value === "function") {
        node.addEventListener(key.slice(2), value);
      } else if (key === "class") {
        node.className = value;
      } else if (key === "style" && typeof value === "object") {
        Object.assign(node.style, value);
      } else if (key === "text") {
        node.textContent = String(value);
      } else {
        node.setAttribute(key, value === true ? "" : String(value));
      }
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node) node.appendChild(child);
    else node.appendChild(document.createTextNode(String(child)));
  }
}

/** Replace all children of `node`. */
export function replace(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/** HTML-escape a string (for the rare place where markup is assembled as text). */
export function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export class ApiError extends Error {
  constructor(message, status, data) {
    super(message);
    this.status = status;
    this.data = data || {};
  }
}

/** fetch + JSON; throws ApiError carrying the server's {"error", "legal"} body on 4xx/5xx. */
export async function api(path, { method = "GET", body } = {}) {
  const options = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (exc) {
    throw new ApiError(`network error: ${exc.message || exc}`, 0, {});
  }
  let data = null;
  const text = await response.text();
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = (data && (data.error || data.detail)) || `${response.status} ${response.statusText}`;
    throw new ApiError(typeof message === "string" ? message : JSON.stringify(message), response.status, data);
  }
  return data;
}

export const SEATS = ["P1", "P2"];
export const other = (seat) => (seat === "P1" ? "P2" : "P1");

/** "P2 · heuristic" style label for a seat, from the view's `seats` map. */
export function seatLabel(seat, seats) {
  const role = seats && typeof seats === "object" ? seats[seat] : null;
  if (!role) return seat;
  return `${seat} · ${role === "human" ? "human" : role}`;
}

/** The game id from a path like /play/ID or /replay/ID. */
export function idFromPath(prefix) {
  const parts = location.pathname.split("/").filter(Boolean);
  const at = parts.indexOf(prefix);
  const raw = at >= 0 ? parts[at + 1] : parts[parts.length - 1];
  return raw ? decodeURIComponent(raw) : "";
}

/** Load the renderer module of a game; a minimal JSON renderer when none exists. */
export async function loadRenderer(game) {
  const safe = /^[a-z0-9_-]+$/i.test(game || "") ? game : "";
  if (safe) {
    if (!document.querySelector(`link[data-game-styles="${safe}"]`)) {
      const link = h("link", { rel: "stylesheet", href: `/static/render/${safe}.css`, "data-game-styles": safe });
      document.head.appendChild(link);
    }
    try {
      const module = await import(`./render/${safe}.js`);
      if (typeof module.render === "function") return module;
    } catch (exc) {
      console.warn(`no renderer for ${game}:`, exc);
    }
  }
  return { render: genericRender };
}

/** Fallback: the observation as JSON plus the legal actions as buttons (via game.js). */
function genericRender(view, container) {
  replace(container, h("pre", { class: "json-dump" }, JSON.stringify(view && view.observation, null, 1)));
}

/** Human label for a window name ("special_summon" -> "special summon"). */
export const words = (text) => String(text ?? "").replace(/_/g, " ");

const LINKS_KEY = "cardlab.games";

/** The games this browser created (lobby) or visited, newest first. */
export function loadMyGames() {
  try {
    const data = JSON.parse(localStorage.getItem(LINKS_KEY) || "[]");
    return Array.isArray(data) ? data.filter((g) => g && typeof g.id === "string") : [];
  } catch {
    return [];
  }
}

export function saveMyGames(list) {
  try {
    localStorage.setItem(LINKS_KEY, JSON.stringify(list.slice(0, 50)));
  } catch {
    /* storage full or disabled: nothing to do */
  }
}

/** Add or merge one entry {id, game, title, urls, spectator_url, seats, created}. */
export function rememberGame(entry) {
  const list = loadMyGames();
  const at = list.findIndex((g) => g.id === entry.id);
  if (at >= 0) {
    const merged = { ...list[at], ...entry, urls: { ...(list[at].urls || {}), ...(entry.urls || {}) } };
    list.splice(at, 1);
    list.unshift(merged);
  } else {
    list.unshift(entry);
  }
  saveMyGames(list);
}

// ---- cards and words in a player's terms ------------------------------------------------------
// The server sends each view's cards in words (view.cards: id -> {name, stats, abilities, keywords})
// and each game's glossary (term -> explanation with rule ids). Renderers lay them out with the
// helpers below; one popover, shared by every page, explains a keyword or a whole card on hover,
// focus or tap.

let glossaryTerms = {};
let cardWords = {};

/** The glossary the popovers explain terms from (GET /api/games/{id}/glossary or /api/glossary/{game}). */
export function setGlossary(terms) {
  glossaryTerms = terms && typeof terms === "object" ? terms : {};
}

let endReasons = {};

/** Why a game may end, in the game's words: reason -> {P1, P2, draw} (the glossary's `reasons`). */
export function setReasons(reasons) {
  endReasons = reasons && typeof reasons === "object" ? reasons : {};
}

/** Why this game ended, in words ("P2's casters have no HP left"); the reason's own word where the game says none. */
export function reasonWords(result) {
  if (!result || !result.reason) return "";
  const table = endReasons[result.reason];
  const said = table && typeof table === "object" ? table[result.winner || "draw"] : null;
  return typeof said === "string" ? said : words(result.reason);
}

/** The cards the popovers describe: the `cards` of the view being shown. */
export function setCards(cards) {
  cardWords = cards && typeof cards === "object" ? cards : {};
}

/** A card's words ({name, stats, abilities, keywords}) by the id the view names it with, or null. */
export function cardEntry(id) {
  return id !== null && id !== undefined && Object.prototype.hasOwnProperty.call(cardWords, id) ? cardWords[id] : null;
}

/** The card's name without its leading id ("S11 Quartermaster" -> "Quartermaster"). */
export function shortName(id, entry) {
  const name = entry ? String(entry.name) : "";
  return name.startsWith(`${id} `) ? name.slice(String(id).length + 1) : name;
}

/** A keyword that explains itself: hover, focus or tap shows its glossary entry. */
export function term(word, text = word) {
  return h("span", { class: "kw", "data-term": word, tabindex: "0" }, text);
}

const escapeRegex = (text) => String(text).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `text` with the first mention of each keyword (not yet in `used`) marked as a term. */
export function withTerms(text, keywords, used = new Set()) {
  const marks = [];
  for (const word of [...(keywords || [])].sort((a, b) => b.length - a.length)) {
    if (used.has(word)) continue;
    const match = new RegExp(`(^|[^\\w])(${escapeRegex(word)})(?![\\w])`, "i").exec(text);
    if (!match) continue;
    const start = match.index + match[1].length;
    const end = start + match[2].length;
    if (marks.some((m) => start < m.end && m.start < end)) continue;
    marks.push({ start, end, word });
    used.add(word);
  }
  marks.sort((a, b) => a.start - b.start);
  const nodes = [];
  let at = 0;
  for (const mark of marks) {
    if (mark.start > at) nodes.push(text.slice(at, mark.start));
    nodes.push(term(mark.word, text.slice(mark.start, mark.end)));
    at = mark.end;
  }
  if (at < text.length) nodes.push(text.slice(at));
  return nodes;
}

/** A card's stats and abilities as DOM nodes, each keyword marked once; keywords the text never
 * mentions follow as chips. `stats` may be a shortened stats line for a small face. */
export function cardText(entry, { stats = entry && entry.stats, abilities = true } = {}) {
  if (!entry) return [];
  const used = new Set();
  const keywords = Array.isArray(entry.keywords) ? entry.keywords : [];
  const out = [];
  if (stats) out.push(h("div", { class: "cw-stats" }, withTerms(String(stats), keywords, used)));
  if (abilities) {
    for (const ability of entry.abilities || []) out.push(h("div", { class: "cw-ability" }, withTerms(String(ability), keywords, used)));
  }
  const rest = keywords.filter((word) => !used.has(word));
  if (rest.length) out.push(h("div", { class: "cw-keywords" }, rest.map((word) => term(word))));
  return out;
}

/** A small "?" on a card face: a tap shows the whole card without playing it (focus shows it too). */
export function cardInfoButton(id) {
  const entry = cardEntry(id);
  const label = `what ${entry ? entry.name : "this card"} does`;
  return h("span", { class: "card-info", "data-words": id, role: "button", tabindex: "0", "aria-label": label }, "?");
}

/** A card in words for a screen reader: "S06 Militia Pikeman: cost 1 · ATK 1 · HP 2. Ability one. Ability two."
 * (its name, its stats and what it does); `fallback` when the view does not describe the card. */
export function cardSpoken(id, fallback = String(id ?? "")) {
  const entry = cardEntry(id);
  if (!entry) return fallback;
  const parts = [String(entry.name)];
  if (entry.stats) parts[0] += `: ${entry.stats}`;
  for (const ability of entry.abilities || []) parts.push(String(ability));
  return parts.join(". ").replace(/\.\./g, ".");
}

/** Name a zone (or a place) for assistive technology: a group with a label in words ("Your hand", "P2's field"). */
export function zoneAttrs(attrs, label) {
  attrs.role = "group";
  attrs["aria-label"] = label;
  return attrs;
}

/** A control inside another control is announced as one and hidden as the other (axe: nested-interactive):
 * keywords and "?" marks printed on a card that is itself a control lose their own focus stop there (the
 * card's own focus explains it, and its description says what it does). Called after every board drawing. */
export function settle(root) {
  if (!root) return root;
  for (const control of root.querySelectorAll('[role="button"], button, a[href]')) {
    for (const inner of control.querySelectorAll('[tabindex], [role="button"], button, a[href]')) {
      inner.removeAttribute("tabindex");
      if (inner.getAttribute("role") === "button") inner.removeAttribute("role");
      if (inner.matches(".card-info")) {
        inner.removeAttribute("aria-label");
        inner.setAttribute("aria-hidden", "true");
      }
    }
  }
  return root;
}

let popover = null;
let popoverFor = null;
let pinned = false; // shown by a tap (a second tap hides it), not by a passing pointer

function popoverContent(target) {
  const word = target.getAttribute("data-term");
  if (word !== null) {
    const text = glossaryTerms[word];
    return text ? [h("b", null, word), " — ", text] : null;
  }
  const id = target.getAttribute("data-words");
  const entry = cardEntry(id);
  if (!entry) return null;
  return [h("div", { class: "cw-name" }, entry.name), cardText(entry)];
}

function showPopover(target) {
  const content = popoverContent(target);
  if (!content) return;
  if (!popover) {
    popover = h("div", { id: "popover", class: "popover", role: "tooltip" });
    document.body.appendChild(popover);
  }
  replace(popover, content);
  popover.setAttribute("data-for", target.getAttribute("data-term") ?? target.getAttribute("data-words"));
  popover.hidden = false;
  if (popoverFor && popoverFor !== target) popoverFor.removeAttribute("aria-describedby");
  if (!target.hasAttribute("aria-description")) target.setAttribute("aria-describedby", "popover"); // read with it
  popoverFor = target;
  pinned = false;
  const box = target.getBoundingClientRect();
  const width = Math.min(320, window.innerWidth - 16);
  popover.style.maxWidth = `${width}px`;
  const left = Math.max(8, Math.min(box.left, window.innerWidth - popover.offsetWidth - 8));
  const below = box.bottom + 6 + popover.offsetHeight <= window.innerHeight;
  popover.style.left = `${left}px`;
  popover.style.top = `${below ? box.bottom + 6 : Math.max(8, box.top - popover.offsetHeight - 6)}px`;
}

export function hidePopover() {
  if (popover) popover.hidden = true;
  if (popoverFor && popoverFor.getAttribute("aria-describedby") === "popover") popoverFor.removeAttribute("aria-describedby");
  popoverFor = null;
  pinned = false;
}

const EXPLAINS = "[data-term], [data-words]";

/** Keywords and cards explain themselves on hover and focus; a tap on a keyword or a card's "?"
 * shows the explanation instead of playing the card it sits on (a mouse click on a keyword of a
 * card plays the card). Installed once per page. */
export function installPopovers() {
  document.addEventListener("mouseover", (event) => {
    const target = event.target instanceof Element ? event.target.closest(EXPLAINS) : null;
    if (pinned) return;
    if (target && target !== popoverFor) showPopover(target);
    else if (!target && popoverFor && !(event.target instanceof Element && event.target.closest("#popover"))) hidePopover();
  });
  document.addEventListener("focusin", (event) => {
    const target = event.target instanceof Element ? event.target.closest(EXPLAINS) : null;
    if (target) showPopover(target);
  });
  let touch = false; // the pointer that clicks: a finger cannot hover, so its tap on a keyword explains it
  document.addEventListener("pointerdown", (event) => (touch = event.pointerType !== "mouse"), true);
  document.addEventListener(
    "click",
    (event) => {
      let target = event.target instanceof Element ? event.target.closest("[data-term], .card-info") : null;
      // a mouse click on a keyword printed on a card plays the card (hovering it already explained it)
      if (target && !touch && !target.matches(".card-info") && target.closest(".clickable, .inert")) target = null;
      if (!target) {
        if (!(event.target instanceof Element && event.target.closest("#popover"))) hidePopover();
        return;
      }
      event.preventDefault();
      event.stopPropagation(); // the card under a keyword is not played by the tap that asks what it means
      if (pinned && popoverFor === target) {
        hidePopover();
      } else {
        showPopover(target);
        pinned = popoverFor === target;
      }
    },
    true,
  );
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      hidePopover();
      return;
    }
    // a keyword or a "?" with the keyboard: Enter or Space pins (or unpins) its explanation
    const target = event.target instanceof Element ? event.target : null;
    if ((event.key === "Enter" || event.key === " ") && target && target.matches("[data-term][tabindex], .card-info[tabindex]")) {
      event.preventDefault();
      if (pinned && popoverFor === target) hidePopover();
      else {
        showPopover(target);
        pinned = popoverFor === target;
      }
    }
  });
}
