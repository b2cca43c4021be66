// The play page: /play/{id}?token=T. Loads the seat's view, keeps it live through the
// websocket (polling GET every 1.5 s while the socket is down), renders the board with the
// game's renderer module and lets the player click legal actions.

import {
  api,
  h,
  replace,
  idFromPath,
  loadRenderer,
  seatLabel,
  words,
  rememberGame,
  setCards,
  setGlossary,
  setReasons,
  reasonWords,
  installPopovers,
  hidePopover,
  settle,
} from "./common.js";

const gameId = idFromPath("play");
const token = new URLSearchParams(location.search).get("token") || "";
const $ = (id) => document.getElementById(id);

let view = null;
let renderer = null;
let rendererGame = null;
let busy = false;
let socket = null;
let pollTimer = null;
let reconnectTimer = null;
let reconnectDelay = 3000;
let lastLogKey = "";
let remembered = false;
let glossaryLoaded = false;
let seenEvents = null; // how many events the player had seen when they last acted: later ones are new to them
let announced = null; // how many events the live region has read out (none of those before the page opened)
let wasMyMove = false;
// Keyboard play (#55): where the focus was (the options, the board) and on which action, so that a redraw
// that removed the focused control puts the focus back there, or on the first option, not on the page top.
let lastInput = "pointer";
let focusRegion = null;
let focusKey = null;
const KEYS = ["data-action", "data-choices", "data-words", "data-term", "data-square", "data-slot", "data-area", "data-card"];

function viewUrl() {
  return `/api/games/${encodeURIComponent(gameId)}${token ? `?token=${encodeURIComponent(token)}` : ""}`;
}

function isView(data) {
  return data && typeof data === "object" && data.observation && typeof data.observation === "object";
}

async function accept(data) {
  if (!isView(data)) {
    if (data && typeof data === "object" && data.error) showError(String(data.error));
    return;
  }
  const version = Number(data.version);
  if (view && Number.isFinite(version) && Number.isFinite(Number(view.version)) && version < Number(view.version)) return;
  // The socket's first message repeats the view the page loaded: redrawing it would only close an open explanation.
  if (view && version === Number(view.version) && JSON.stringify(data) === JSON.stringify(view)) return;
  if (!renderer || rendererGame !== data.game) {
    renderer = await loadRenderer(data.game);
    rendererGame = data.game;
  }
  view = data;
  if (!glossaryLoaded) {
    glossaryLoaded = true;
    loadGlossary();
  }
  if (!remembered) {
    remembered = true;
    rememberGame({
      id: gameId,
      game: data.game,
      title: data.title || data.game,
      seats: data.seats || {},
      urls: token && data.seat ? { [data.seat]: `/play/${encodeURIComponent(gameId)}?token=${encodeURIComponent(token)}` } : {},
      spectator_url: `/play/${encodeURIComponent(gameId)}`,
      created: Date.now(),
    });
  }
  draw();
  if (isOver()) stopPolling();
}

/** How this game is won (a line under the top bar) and its keywords (for the popovers). */
async function loadGlossary() {
  try {
    const data = await api(`/api/games/${encodeURIComponent(gameId)}/glossary`);
    setGlossary(data && data.glossary);
    setReasons(data && data.reasons);
    if (isOver()) draw(); // a game that ended before the words came: say why in words
    const line = data && typeof data.how_to_win === "string" ? data.how_to_win : "";
    const box = $("how-to-win");
    replace(box, h("summary", null, h("b", null, "How to win: "), line));
    box.hidden = !line;
  } catch {
    /* the board works without explanations */
  }
}

function isOver() {
  return !!view && (view.status === "over" || !!view.result || (view.observation && view.observation.window === "over"));
}

function windowName(w) {
  return renderer && typeof renderer.windowName === "function" ? renderer.windowName(w) : words(w);
}

function actionLabel(action) {
  try {
    return renderer && typeof renderer.actionLabel === "function" ? renderer.actionLabel(action, view) : action;
  } catch {
    return action;
  }
}

function resultText(result, seat) {
  if (!result) return "Game over.";
  const why = reasonWords(result);
  const reason = why ? `: ${why}` : "";
  if (!result.winner) return `Game over, a draw${reason}.`;
  if (seat) return result.winner === seat ? `You win${reason}.` : `You lose${reason}.`;
  return `${result.winner} wins${reason}.`;
}

function draw() {
  const obs = view.observation || {};
  const seat = view.seat || null;
  const legal = Array.isArray(view.legal) ? view.legal : [];
  const over = isOver();
  const myMove = legal.length > 0 && !over;
  const title = view.title || view.game || "game";

  document.title = `${myMove ? "● " : ""}${title} — ${seat || "spectator"} · cardlab`;
  replace($("title"), title, " ", h("span", { class: "muted" }, seat ? `— you are ${seat}` : "— spectating"));
  replace(
    $("links"),
    h("a", { href: "/" }, "Lobby"),
    view.game ? h("a", { href: `/rules/${encodeURIComponent(view.game)}`, target: "_blank" }, "Rules") : null,
    h("a", { href: replayHref() }, "Replay"),
    seat ? h("a", { href: `/play/${encodeURIComponent(gameId)}`, title: "the public view of this game" }, "Spectator view") : null,
  );

  // status line: turn, whose turn, window, who must act
  const turnPlayer = obs.turn_player || obs.active || null;
  const parts = [];
  if (obs.turn !== undefined && obs.turn !== null) parts.push(`Turn ${obs.turn}`);
  if (turnPlayer) parts.push(`${turnPlayer}'s turn`);
  if (obs.window) parts.push(windowName(obs.window));
  let who;
  if (over) who = h("b", null, resultText(view.result, seat));
  else if (myMove) who = h("b", { class: "your-move" }, "Your move");
  else if (obs.to_move) who = `Waiting for ${seatLabel(obs.to_move, view.seats)}…`;
  else who = "Waiting…";
  replace($("status"), h("span", { "data-window": obs.window || "" }, parts.join(" · ")), " — ", who);
  $("status").classList.toggle("my-move", myMove);

  $("hint").textContent = over ? "" : view.hint || "";
  $("hint").hidden = over || !view.hint;

  setCards(view.cards);
  hidePopover();
  renderer.render(view, $("board"), over ? null : onAction, { explain });
  settle($("board"));
  drawLegal(legal, over, seat, obs);
  drawLog();
  drawResult(over, seat);
  announce(myMove, over, seat);
  if (busy) setBusy(true);
  restoreFocus(over);
}

/** Where the focus is: which part of the page, and which action its control stands for. */
function trackFocus(event) {
  const target = event.target instanceof Element ? event.target : null;
  if (!target) return;
  focusRegion = target.closest("#legal") ? "legal" : target.closest("#board") ? "board" : target.closest("#result") ? "result" : null;
  const keys = KEYS.filter((key) => target.hasAttribute(key));
  focusKey = keys.length ? keys.map((key) => `[${key}="${CSS.escape(target.getAttribute(key))}"]`).join("") : null;
}

/** After a redraw removed the focused control (or a busy button lost it), a keyboard player's focus goes
 * back to the same action where it is still offered, else to the first option (or the result's first
 * control once the game is over), never to the top of the page. */
function restoreFocus(over) {
  const active = document.activeElement;
  if (lastInput !== "keyboard" || !focusRegion) return;
  if (active && active !== document.body && active.isConnected && active !== $("legal")) return;
  const region = focusRegion === "board" ? "#board" : "#legal";
  const same = focusKey ? document.querySelector(`${region} ${focusKey}`) : null;
  const target =
    (same && !same.disabled && same.tabIndex >= 0 ? same : null) ||
    (over ? $("result").querySelector("button, a") : null) ||
    $("legal").querySelector("button:not(:disabled)") ||
    $("legal");
  if (target && target !== active) target.focus();
}

/** The live region: events since the page opened are read out as they arrive, then whose move it is. */
function announce(myMove, over, seat) {
  const events = Array.isArray(view.events) ? view.events : [];
  if (announced === null || announced > events.length) announced = events.length;
  const lines = events.slice(announced).map((event) => (event && typeof event === "object" ? event.text || event.kind : String(event)));
  announced = events.length;
  if (over) lines.push(resultText(view.result, seat));
  else if (myMove && !wasMyMove) lines.push("Your move.");
  wasMyMove = myMove && !over;
  if (lines.length) replace($("announce"), lines.slice(-20).map((text) => h("p", null, String(text))));
}

/** One option in the player's words; the action as the terminal types it is only its tooltip. */
function actionButton(action) {
  return h(
    "button",
    { type: "button", class: "action-btn", "data-action": action, title: `typed: ${action}`, onclick: () => onAction(action) },
    h("span", { class: "label" }, actionLabel(action)),
  );
}

/** The legal actions in the renderer's groups (a card, then what to do with it), or as they come. */
function legalGroups(legal) {
  if (!renderer || typeof renderer.groupActions !== "function") return null;
  try {
    return renderer.groupActions(legal, view);
  } catch {
    return null;
  }
}

function drawLegal(legal, over, seat, obs) {
  const box = $("legal");
  box.dataset.version = String(view.version ?? "");
  if (over) {
    replace(box, h("p", { class: "muted" }, "The game is over."));
  } else if (legal.length) {
    const groups = legalGroups(legal);
    replace(
      box,
      groups
        ? groups.map((group) =>
            h(
              "div",
              { class: "action-group", "data-group": group.key, role: group.title ? "group" : null, "aria-label": group.title || null },
              group.title ? h("div", { class: "group-title" }, group.title) : null,
              group.actions.map(actionButton),
            ),
          )
        : legal.map(actionButton),
    );
  } else if (!seat) {
    replace(box, h("p", { class: "muted" }, "You are watching as a spectator."));
  } else {
    replace(box, h("p", { class: "muted" }, obs.to_move ? `Waiting for ${seatLabel(obs.to_move, view.seats)}…` : "Waiting…"));
  }
}

function drawLog() {
  const events = Array.isArray(view.events) ? view.events : [];
  const log = $("log");
  // redrawn when events arrive, or when the option list above it resized it (then scrolled again)
  const key = `${events.length}|${events.length ? JSON.stringify(events[events.length - 1]) : ""}|${log.clientHeight}`;
  if (key === lastLogKey) return;
  lastLogKey = key;
  if (seenEvents === null || seenEvents > events.length) seenEvents = events.length;
  replace(
    log,
    events.map((event, index) => {
      const kind = event && typeof event === "object" ? String(event.kind || "") : "";
      const text = event && typeof event === "object" ? event.text || kind : String(event);
      return h("li", { "data-kind": kind, "data-index": index, class: index >= seenEvents ? "fresh" : null }, text);
    }),
  );
  // Show what happened since the player last acted (a whole AI turn) from its start when it fits.
  const first = log.querySelector("li.fresh");
  const from = first ? first.getBoundingClientRect().top - log.getBoundingClientRect().top + log.scrollTop : 0;
  log.scrollTop = first && log.scrollHeight - from <= log.clientHeight ? from : log.scrollHeight;
}

function drawResult(over, seat) {
  const box = $("result");
  if (!over) {
    box.hidden = true;
    replace(box);
    return;
  }
  const result = view.result || null;
  const appearing = box.hidden;
  const outcome = !result || !result.winner ? "draw" : seat ? (result.winner === seat ? "win" : "loss") : "neutral";
  box.hidden = false;
  box.className = `result ${outcome}`;
  box.setAttribute("data-winner", (result && result.winner) || "");
  replace(
    box,
    h("div", { class: "result-text" }, resultText(result, seat)),
    h(
      "div",
      { class: "result-actions" },
      token ? h("button", { type: "button", id: "rematch", class: "primary", onclick: rematch }, "Rematch") : null,
      h("a", { class: "button", href: replayHref() }, "Watch replay"),
      h("a", { class: "button", href: "/" }, "Back to lobby"),
    ),
  );
  // The game just ended: on a phone the player is down at the options, far below the banner.
  if (appearing) box.scrollIntoView({ block: "nearest" });
}

// A seat's replay shows its own secrets while the game runs, so the link carries its token.
function replayHref() {
  return `/replay/${encodeURIComponent(gameId)}${token ? `?token=${encodeURIComponent(token)}` : ""}`;
}

async function rematch() {
  const button = $("rematch");
  if (button) button.disabled = true;
  try {
    const created = await api(`/api/games/${encodeURIComponent(gameId)}/rematch`, { method: "POST", body: { token } });
    const seat = view && view.seat;
    const urls = (created && created.urls) || {};
    rememberGame({
      id: created.id,
      game: view.game,
      title: view.title || view.game,
      seats: view.seats || {},
      urls,
      spectator_url: created.spectator_url || `/play/${created.id}`,
      created: Date.now(),
    });
    const target = (seat && urls[seat]) || created.spectator_url || `/play/${encodeURIComponent(created.id)}`;
    location.href = target;
  } catch (exc) {
    showError(`Rematch failed: ${exc.message}`);
    if (button) button.disabled = false;
  }
}

function setBusy(on) {
  for (const node of document.querySelectorAll("#legal [data-action], #board [data-action]")) {
    if (node.tagName === "BUTTON") node.disabled = on;
    else if (on) node.setAttribute("aria-disabled", "true");
    else node.removeAttribute("aria-disabled");
    node.classList.toggle("busy", on);
  }
}

/** Why a card the player clicked cannot be played now, from the server's rules (nothing is played). */
async function explain(action) {
  if (!view || !token) return;
  try {
    const answer = await api(`/api/games/${encodeURIComponent(gameId)}/explain`, { method: "POST", body: { token, action } });
    showNotice(answer.legal ? `${actionLabel(action)}: allowed now.` : `${actionLabel(action)}: ${answer.reason}`);
  } catch (exc) {
    showNotice(`${actionLabel(action)}: ${exc.message}`);
  }
}

function showNotice(text) {
  const box = $("notice");
  box.textContent = text;
  box.hidden = false;
}

/** Send one action; false when another is still on its way (nothing is sent then). */
async function onAction(action) {
  if (busy || !view || !token) return false;
  busy = true;
  setBusy(true);
  hideError();
  $("notice").hidden = true;
  seenEvents = Array.isArray(view.events) ? view.events.length : 0;
  try {
    const next = await api(`/api/games/${encodeURIComponent(gameId)}/actions`, {
      method: "POST",
      body: { token, action, version: Number(view.version) },
    });
    busy = false;
    await accept(next);
  } catch (exc) {
    busy = false;
    const legal = exc.data && Array.isArray(exc.data.legal) ? exc.data.legal : null;
    showError(`${action}: ${exc.message}${legal && legal.length ? ` (legal: ${legal.join(", ")})` : ""}`);
    refresh();
  } finally {
    busy = false;
    setBusy(false);
    restoreFocus(isOver()); // a view drawn while busy had its options disabled: the focus waited on the list
  }
}

function showError(text) {
  const box = $("error");
  replace(box, text, " ", h("a", { href: "/", class: "lobby-link" }, "back to the lobby"));
  box.hidden = false;
}

function hideError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

function setConn(text, cls) {
  const node = $("conn");
  node.textContent = text;
  node.className = `conn ${cls || ""}`;
}

async function refresh() {
  try {
    await accept(await api(viewUrl()));
  } catch (exc) {
    setConn(`offline: ${exc.message}`, "bad");
  }
}

function startPolling() {
  if (pollTimer || isOver()) return;
  pollTimer = setInterval(refresh, 1500);
}

function stopPolling() {
  if (pollTimer) clearInterval(pollTimer);
  pollTimer = null;
}

function connect() {
  if (reconnectTimer) clearTimeout(reconnectTimer);
  reconnectTimer = null;
  if (!("WebSocket" in window)) {
    setConn("polling", "warn");
    startPolling();
    return;
  }
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const url = `${proto}//${location.host}/ws/games/${encodeURIComponent(gameId)}${token ? `?token=${encodeURIComponent(token)}` : ""}`;
  try {
    socket = new WebSocket(url);
  } catch {
    setConn("polling", "warn");
    startPolling();
    return;
  }
  socket.onopen = () => {
    reconnectDelay = 3000;
    setConn("live", "ok");
    stopPolling();
  };
  socket.onmessage = (event) => {
    let data = null;
    try {
      data = JSON.parse(event.data);
    } catch {
      return;
    }
    accept(data);
  };
  socket.onclose = () => {
    socket = null;
    if (isOver()) {
      setConn("game over", "");
      return;
    }
    setConn("polling (live updates lost)", "warn");
    startPolling();
    reconnectTimer = setTimeout(connect, reconnectDelay);
    reconnectDelay = Math.min(reconnectDelay * 2, 30000);
  };
}

async function main() {
  installPopovers();
  $("hint").addEventListener("click", () => $("hint").classList.toggle("open"));
  document.addEventListener("keydown", (event) => {
    lastInput = "keyboard";
    if (event.key === "Escape") $("notice").hidden = true; // an explanation closes with Escape
  }, true);
  document.addEventListener("pointerdown", () => (lastInput = "pointer"), true);
  document.addEventListener("focusin", trackFocus);
  if (!gameId) {
    replace($("status"), "No game id in the address.");
    return;
  }
  try {
    await accept(await api(viewUrl()));
  } catch (exc) {
    replace(
      $("status"),
      h("b", null, `Could not load game ${gameId}: ${exc.message}`),
      " ",
      h("a", { href: "/", class: "lobby-link" }, "back to the lobby"),
    );
    replace($("legal"));
    startPolling();
    return;
  }
  connect();
}

main();
