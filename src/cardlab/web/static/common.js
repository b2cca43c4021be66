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
