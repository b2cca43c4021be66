// The replay page: /replay/{id}. Steps through the recorded frames with the game's renderer
// (read-only), showing each step's action and events. While the game still runs the replay is
// refreshed every few seconds (public view only); a finished game shows both hands.

import { api, h, replace, idFromPath, loadRenderer, words, setCards, setGlossary, setReasons, reasonWords, installPopovers, settle } from "./common.js";

const gameId = idFromPath("replay");
// With a seat's token the replay of a running game shows that seat's own cards; without, public information.
const token = new URLSearchParams(location.search).get("token") || "";
const $ = (id) => document.getElementById(id);

let replay = null;
let frames = [];
let index = 0;
let renderer = null;
let rendererGame = null;
let playTimer = null;
let refreshTimer = null;

function clamp(i) {
  return Math.max(0, Math.min(frames.length - 1, i));
}

function go(i) {
  if (!frames.length) return;
  index = clamp(i);
  draw();
}

function frameEvents(frame) {
  return frame && Array.isArray(frame.events) ? frame.events : [];
}

function eventText(event) {
  if (event && typeof event === "object") return event.text || String(event.kind || "");
  return String(event);
}

function windowName(w) {
  return renderer && typeof renderer.windowName === "function" ? renderer.windowName(w) : words(w);
}

function actionLabel(action) {
  try {
    return renderer && typeof renderer.actionLabel === "function" ? renderer.actionLabel(action) : action;
  } catch {
    return action;
  }
}

function resultOf(obs) {
  if (!obs || obs.window !== "over") return null;
  return { winner: obs.winner || null, reason: obs.win_reason || obs.reason || null };
}

function draw() {
  const frame = frames[index] || {};
  const obs = frame.observation || {};
  const last = frames.length - 1;

  $("slider").max = String(Math.max(0, last));
  $("slider").value = String(index);
  $("first").disabled = $("prev").disabled = index <= 0;
  $("next").disabled = $("last").disabled = index >= last;

  const parts = [`Step ${index} of ${last}`];
  if (obs.turn !== undefined && obs.turn !== null) parts.push(`turn ${obs.turn}`);
  if (obs.window) parts.push(windowName(obs.window));
  const actionPart = frame.action
    ? [" — ", h("b", null, `${frame.actor ? `${frame.actor}: ` : ""}${actionLabel(frame.action)}`), " ", h("code", { "data-step-action": frame.action }, frame.action)]
    : [" — ", h("b", null, index === 0 ? "start of the game" : frame.actor ? `${frame.actor} chose (hidden until the end)` : "automatic step")];
  replace($("step"), parts.join(" · "), actionPart);

  const events = frameEvents(frame);
  replace(
    $("step-events"),
    events.length ? h("ul", null, events.map((e) => h("li", null, eventText(e)))) : h("span", { class: "muted" }, "no events in this step"),
  );

  const log = $("log");
  const items = [];
  frames.slice(0, index + 1).forEach((f, i) => {
    for (const e of frameEvents(f)) {
      items.push(
        h(
          "li",
          { class: i === index ? "current" : "", "data-step": i, onclick: () => go(i), title: `step ${i}`, "aria-current": i === index ? "step" : null },
          eventText(e),
        ),
      );
    }
  });
  replace(log, items);
  log.scrollTop = log.scrollHeight;

  const result = index === last ? resultOf(obs) : null;
  const box = $("result");
  if (result) {
    box.hidden = false;
    box.className = "result neutral";
    const why = reasonWords(result);
    const reason = why ? `: ${why}` : "";
    replace(box, h("div", { class: "result-text" }, result.winner ? `${result.winner} wins${reason}.` : `Draw${reason}.`));
  } else {
    box.hidden = true;
    replace(box);
  }

  const view = {
    id: replay.id,
    game: replay.game,
    seat: null,
    perspective: $("perspective").value,
    seats: {},
    status: replay.status,
    observation: obs,
    legal: [],
    events: [],
    result,
  };
  if (renderer) renderer.render(view, $("board"), null);
  settle($("board"));
  if (location.hash !== `#${index}`) history.replaceState(null, "", `#${index}`);
}

async function load(first) {
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  const data = await api(`/api/games/${encodeURIComponent(gameId)}/replay${query}`);
  if (!data || !Array.isArray(data.frames)) throw new Error("the replay has no frames");
  const atEnd = !frames.length || index >= frames.length - 1;
  replay = data;
  frames = data.frames;
  setCards(data.cards);
  if (!renderer || rendererGame !== data.game) {
    renderer = await loadRenderer(data.game);
    rendererGame = data.game;
    api(`/api/games/${encodeURIComponent(gameId)}/glossary`).then((g) => {
      setGlossary(g && g.glossary);
      setReasons(g && g.reasons);
      draw(); // the last frame's result, now in the game's words
    }, () => {});
  }
  if (first) {
    const fromHash = parseInt(location.hash.slice(1), 10);
    index = Number.isInteger(fromHash) ? clamp(fromHash) : frames.length - 1;
  } else if (atEnd) {
    index = frames.length - 1;
  }
  index = clamp(index);
  replace(
    $("title"),
    `Replay — ${data.game || "game"} `,
    h("code", null, data.id || gameId),
    " ",
    h("span", { class: "muted", "data-status": data.status || "" }, data.status !== "running" ? "(finished)" : token ? "(still running: your view)" : "(still running: public view)"),
  );
  replace(
    $("links"),
    h("a", { href: "/" }, "Lobby"),
    data.game ? h("a", { href: `/rules/${encodeURIComponent(data.game)}`, target: "_blank" }, "Rules") : null,
    h("a", { href: `/play/${encodeURIComponent(gameId)}` }, "Live view"),
  );
  draw();
  if (data.status === "running") {
    $("conn").textContent = "refreshing every 3 s while the game runs";
    if (!refreshTimer) refreshTimer = setInterval(() => load(false).catch(() => {}), 3000);
  } else {
    $("conn").textContent = "";
    if (refreshTimer) clearInterval(refreshTimer);
    refreshTimer = null;
  }
}

function togglePlay() {
  if (playTimer) {
    clearInterval(playTimer);
    playTimer = null;
    $("play").textContent = "▶ Play";
    return;
  }
  if (index >= frames.length - 1) go(0);
  $("play").textContent = "Pause";
  playTimer = setInterval(() => {
    if (index >= frames.length - 1) togglePlay();
    else go(index + 1);
  }, 900);
}

function wire() {
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(index - 1));
  $("next").addEventListener("click", () => go(index + 1));
  $("last").addEventListener("click", () => go(frames.length - 1));
  $("slider").addEventListener("input", (event) => go(parseInt(event.target.value, 10) || 0));
  $("play").addEventListener("click", togglePlay);
  $("perspective").addEventListener("change", draw);
  document.addEventListener("keydown", (event) => {
    if (event.target && ["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName) && event.target.type !== "range") return;
    if (event.key === "ArrowLeft") go(index - 1);
    else if (event.key === "ArrowRight") go(index + 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(frames.length - 1);
    else if (event.key === " " && event.target.tagName !== "BUTTON") {
      event.preventDefault();
      togglePlay();
    } else return;
  });
}

async function main() {
  wire();
  installPopovers();
  if (!gameId) {
    $("step").textContent = "No game id in the address.";
    return;
  }
  try {
    await load(true);
  } catch (exc) {
    replace(
      $("step"),
      h("b", null, `Could not load the replay of ${gameId}: ${exc.message}`),
      " ",
      h("a", { href: "/", class: "lobby-link" }, "back to the lobby"),
    );
  }
}

main();
