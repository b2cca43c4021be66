// The lab page: /lab (issue #53). Runs lab commands as jobs and follows them over a websocket, draws a
// table as it fills, lists and compares the stored tables, lists a cell's games for the replay viewer,
// and edits card and deck files with live validation. Every number comes from the server, which computes
// it with the library the CLI uses: this page formats, it never computes a statistic.

import { api, h, replace } from "./common.js";

const $ = (id) => document.getElementById(id);
let meta = null;
let watching = null; // the websocket of the job shown
let currentJob = null;
const picked = []; // two stored tables to compare

const pct = (x) => (x === null || x === undefined ? "–" : `${(100 * x).toFixed(1)}%`);
const interval = (ci) => (ci ? `${pct(ci[0])} – ${pct(ci[1])}` : "");

function showError(message) {
  const box = $("lab-error");
  box.textContent = message || "";
  box.hidden = !message;
}

// ---- tabs ----
function showTab(name) {
  for (const tab of document.querySelectorAll(".lab-tab")) tab.hidden = tab.id !== `tab-${name}`;
  for (const link of document.querySelectorAll("[data-tab]")) link.setAttribute("aria-current", link.dataset.tab === name ? "page" : "false");
  if (name === "results") loadResults().catch((e) => showError(e.message));
  if (name === "files") loadFiles().catch((e) => showError(e.message));
}
window.addEventListener("hashchange", () => showTab((location.hash || "#run").slice(1)));

// ---- the run form ----
function gameMeta() {
  return meta.games[$("run-game").value];
}

function fillGame() {
  const g = gameMeta();
  const command = $("run-command").value;
  replace($("run-command"), ...["balance", "sweep", "compare", "tune"].filter((c) => g.commands.includes(c)).map((c) => h("option", { value: c, selected: c === command }, c)));
  $("variant-row").hidden = !g.variant;
  if (g.variant) replace($("run-variant"), ...g.variant.values.map((v) => h("option", { value: v, selected: v === g.variant.default }, v)));
  const sweeping = ["sweep", "tune"].includes($("run-command").value);
  replace(
    $("run-rules"),
    h("legend", null, sweeping ? "Rules to vary (values, comma-separated; empty: left out)" : "Rules"),
    ...g.rules.map((rule) =>
      h("div", { class: "form-row" },
        h("label", { for: `rule-${rule.name}`, title: rule.description }, rule.name),
        sweeping
          ? h("input", { id: `rule-${rule.name}`, "data-rule": rule.name, placeholder: rule.values.join(",") })
          : h("select", { id: `rule-${rule.name}`, "data-rule": rule.name },
              ...rule.values.map((v) => h("option", { value: v, selected: v === rule.default }, v === rule.default ? `${v} (spec)` : v)))),
    ),
  );
  $("run-rules").hidden = !g.rules.length;
  $("patch-row").hidden = !g.patches;
  $("entrants-row").hidden = !g.own_entrants;
  $("cards-row").hidden = !g.own_entrants;
  $("agents-row").hidden = $("run-command").value !== "compare";
  $("preset-row").hidden = $("run-command").value === "compare";
  $("tune-rows").hidden = $("run-command").value !== "tune";
  $("run-agent").hidden = $("run-preset").value !== "custom";
}

const listOf = (text, sep = /[\n,]/) => (text || "").split(sep).map((s) => s.trim()).filter(Boolean);

function formBody() {
  const g = gameMeta();
  const command = $("run-command").value;
  const sweeping = ["sweep", "tune"].includes(command);
  const rules = [];
  for (const input of document.querySelectorAll("[data-rule]")) {
    const rule = g.rules.find((r) => r.name === input.dataset.rule);
    if (sweeping && input.value.trim()) rules.push(`${rule.name}=${input.value.trim()}`);
    else if (!sweeping && input.value !== rule.default) rules.push(`${rule.name}=${input.value}`);
  }
  const number = (id) => ($(id).value === "" ? null : Number($(id).value));
  return {
    command,
    game: $("run-game").value,
    variant: g.variant && $("run-variant").value !== g.variant.default ? $("run-variant").value : null,
    rules,
    patches: g.patches ? listOf($("run-patches").value, /\n|;|\s(?=\S+\.\S+=)/) : [],
    entrants: g.own_entrants && $("run-entrants").value.trim() ? $("run-entrants").value.trim() : null,
    cards: g.own_entrants ? listOf($("run-cards").value) : [],
    preset: $("run-preset").value,
    agent: $("run-preset").value === "custom" ? $("run-agent").value.trim() : null,
    agents: command === "compare" ? $("run-agents").value.trim() : null,
    games: number("run-games"),
    seed: number("run-seed") || 0,
    mirrors: $("run-mirrors").checked,
    engine: $("run-engine").value,
    workers: number("run-workers"),
    targets: command === "tune" ? listOf($("run-target").value) : [],
    max_edits: command === "tune" ? number("run-max-edits") : null,
    budget: command === "tune" ? $("run-budget").value.trim() || null : null,
  };
}

let previewTimer = null;
function preview() {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(async () => {
    try {
      const checked = await api("/api/lab/command", { method: "POST", body: formBody() });
      $("cli-command").textContent = checked.command;
      $("form-problem").textContent = `${checked.games.toLocaleString()} games at most`;
      $("form-problem").classList.remove("bad");
      $("run-start").disabled = false;
    } catch (exc) {
      $("form-problem").textContent = exc.message;
      $("form-problem").classList.add("bad");
      $("run-start").disabled = true;
    }
  }, 150);
}

async function startJob(body) {
  showError("");
  const job = await api("/api/lab/jobs", { method: "POST", body });
  location.hash = "#run";
  follow(job);
  return job;
}

// ---- a job, followed live ----
function follow(job) {
  if (watching) watching.close();
  currentJob = job;
  replace($("live-table"));
  drawJob(job);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/lab/jobs/${job.id}`);
  watching = socket;
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.job.id !== currentJob.id) return;
    const changed = message.job.state !== currentJob.state;
    currentJob = message.job;
    if (changed) loadJobs().catch(() => {});
    drawJob(message.job);
    if (message.summary) drawTable($("live-table"), message.summary, message.job.table);
  };
  loadJobs();
}

function drawJob(job) {
  $("job-state").textContent = `#${job.id} ${job.state}`;
  $("job-state").dataset.state = job.state;
  const eta = job.eta === null || job.eta === undefined ? "" : ` · ETA ${Math.ceil(job.eta)} s`;
  const rate = job.rate ? ` · ${job.rate >= 10 ? Math.round(job.rate).toLocaleString() : job.rate.toPrecision(2)} games/s` : "";
  replace(
    $("job-progress"),
    h("code", { class: "lab-job-command" }, job.command),
    h("div", null,
      h("progress", { max: Math.max(1, job.games), value: Math.min(job.done, job.games) }),
      h("span", { id: "job-done", "data-done": job.done }, ` ${job.done.toLocaleString()} / ${job.games.toLocaleString()} games`),
      rate, eta, job.phase ? h("span", { class: "muted" }, ` · ${job.phase}`) : null),
  );
  $("job-cancel").hidden = !["queued", "running"].includes(job.state);
  $("job-resume").hidden = !job.resumable;
  $("job-log").textContent = job.log.join("\n");
}

async function loadJobs() {
  const { jobs } = await api("/api/lab/jobs");
  replace($("job-list"), ...jobs.map((job) =>
    h("li", null, h("a", { href: "#run", onclick: () => follow(job) }, `#${job.id} ${job.state}`), " ", h("code", null, job.command))));
}

// ---- a table: heatmap, seat split, first player, totals, equilibrium ----
function names(summary) {
  return summary.entrant_names || {};
}

function rowFor(summary, a, b) {
  for (const row of [...summary.pairings, ...summary.mirrors]) {
    if (row.a === a && row.b === b) return { row, flip: false };
    if (row.a === b && row.b === a) return { row, flip: true };
  }
  return null;
}

function seatText(row, flip) {
  const who = flip ? row.b : row.a;
  const first = flip ? ["a_second", "second"] : ["a_first", "first"];
  const second = flip ? ["a_first", "first"] : ["a_second", "second"];
  const rate = (key) => (row[`${key}_games`] ? (flip ? 1 - row[`${key}_wins`] / row[`${key}_games`] : row[`${key}_wins`] / row[`${key}_games`]) : null);
  const ci = (key) => (flip ? [1 - row[`${key}_ci95`][1], 1 - row[`${key}_ci95`][0]] : row[`${key}_ci95`]);
  const line = ([key], words) => `${who} ${words}: ${row[`${key}_wins`] !== undefined ? (flip ? row[`${key}_games`] - row[`${key}_wins`] : row[`${key}_wins`]) : 0}/${row[`${key}_games`]} = ${pct(rate(key))} (95% ${interval(ci(key))})${row[`${key}_significant`] ? ", differs from 50% (Holm)" : ""}`;
  return [line(first, "moving first"), line(second, "moving second")];
}

export function drawTable(container, summary, ref) {
  const entrants = summary.matrix.entrants.filter((e) => summary[summary.kind] && e in summary[summary.kind]);
  const word = (e) => (names(summary)[e] ? `${names(summary)[e]} (${e})` : e);
  const rates = summary.matrix.win_rate;
  const at = (e) => summary.matrix.entrants.indexOf(e);
  const heat = h("table", { class: "lab-heatmap", "data-total": summary.total_games },
    h("thead", null, h("tr", null, h("th", null, "row beats column"), ...entrants.map((e) => h("th", { scope: "col" }, word(e))))),
    h("tbody", null, ...entrants.map((a) => h("tr", null, h("th", { scope: "row" }, word(a)), ...entrants.map((b) => {
      const rate = rates[at(a)][at(b)];
      const found = rowFor(summary, a, b);
      if (rate === null || !found || a === b) return h("td", { class: "lab-cell empty" }, a === b ? "" : "·");
      const { row, flip } = found;
      const significant = row.a_first_significant || row.a_second_significant;
      const lines = seatText(row, flip);
      const cell = h("td", {
        class: `lab-cell${significant ? " significant" : ""}`,
        "data-a": a, "data-b": b, "data-rate": rate.toFixed(4),
        title: `${word(a)} vs ${word(b)}: ${pct(rate)}\n${lines.join("\n")}`,
        style: { background: heatColour(rate) },
        tabindex: "0",
        onclick: () => ref && openCell(ref, row),
      }, pct(rate));
      return cell;
    })))));
  const fp = summary.first_player;
  const totals = h("table", { class: "lab-totals" },
    h("thead", null, h("tr", null, h("th", null, summary.kind), h("th", null, "wins"), h("th", null, "rate"), h("th", null, "95%"), h("th", null, "Nash weight"))),
    h("tbody", null, ...entrants.map((e) => {
      const t = summary[summary.kind][e];
      const eq = summary.equilibrium && summary.equilibrium.weights && summary.equilibrium.weights[e];
      return h("tr", { "data-entrant": e }, h("th", { scope: "row" }, word(e)), h("td", null, `${t.wins}/${t.games}`),
        h("td", { class: "rate" }, pct(t.wins / t.games)), h("td", null, interval(t.ci95)), h("td", null, eq ? `${pct(eq.weight)} [${interval(eq.ci95)}]` : "–"));
    })));
  replace(container,
    h("p", { class: "lab-table-head" },
      `${summary.game} ${summary.variant} · ${summary.agent} · ${summary.total_games.toLocaleString()} games`,
      h("br"),
      h("span", { id: "first-player", "data-rate": fp.rate.toFixed(4) }, `First player wins ${fp.wins}/${fp.games} = ${pct(fp.rate)} (95% ${interval(fp.ci95)}, p = ${fp.p_value.toPrecision(3)})`),
      h("br"),
      h("span", { class: "muted" }, `${summary.significance.significant_cells.length} cells differ from 50% (outlined; ${summary.significance.correction}). Hover a cell for its seats and intervals; click it for its games.`)),
    heat, totals,
    summary.pooled ? h("p", { class: "muted" }, summary.pooled) : null,
  );
}

function heatColour(rate) {
  const d = Math.max(-0.5, Math.min(0.5, rate - 0.5));
  const strength = Math.round(Math.abs(d) * 2 * 70);
  return d >= 0 ? `hsl(140 55% ${95 - strength * 0.5}%)` : `hsl(0 65% ${95 - strength * 0.5}%)`;
}

// ---- why this cell ----
async function openCell(ref, row) {
  const cell = `${row.a}-${row.b}`;
  const seats = await Promise.all([0, 1].map((seat) => api(`/api/lab/cell?${new URLSearchParams({ ...ref, cell, seat })}`)));
  $("cell-panel").hidden = false;
  replace($("cell-title"), `Games of ${row.a} vs ${row.b}`);
  replace($("cell-games"), ...seats.map((found, seat) => h("section", null,
    h("h3", null, `${seat === 0 ? row.a : row.b} moves first`),
    found.kernel_games ? h("p", { class: "muted" }, `${found.kernel_games} more games were played by a compiled kernel: counts only, no replay`) : null,
    h("table", { class: "lab-games" },
      h("thead", null, h("tr", null, h("th", null, "#"), h("th", null, "winner"), h("th", null, "how"), h("th", null, "turns"), h("th", null, "seed"), h("th", null, ""))),
      h("tbody", null, ...found.games.map((g) => h("tr", null, h("td", null, g.index),
        h("td", null, g.winner === 0 ? `${g.p1} (P1)` : g.winner === 1 ? `${g.p2} (P2)` : "draw"), h("td", null, g.reason), h("td", null, g.turns),
        h("td", null, h("code", null, g.seed)),
        h("td", null, g.replay ? h("a", { class: "replay-link", href: g.replay, "data-game": g.id, onclick: (e) => openReplay(e, g) }, "replay") : "no actions stored"))))))));
  $("cell-panel").scrollIntoView({ block: "nearest" });
}

async function openReplay(event, game) {
  // open at the step where the game swung, when the game's own evaluation can tell
  event.preventDefault();
  let hash = "";
  try {
    const replay = await api(`/api/games/lab-${game.id}/replay`);
    if (replay.swing) hash = `#${replay.swing.step}`;
  } catch { /* the viewer says what is wrong */ }
  location.href = `${game.replay}${hash}`;
}

// ---- stored results ----
async function loadResults() {
  const game = $("filter-game").value;
  const { tables, comparisons } = await api(`/api/lab/tables${game ? `?game=${encodeURIComponent(game)}` : ""}`);
  replace($("results").tBodies[0], ...tables.map((t) => {
    const parts = t.variant.split("+");
    const ruleNames = new Set(((meta.games[t.game] || {}).rules || []).map((r) => r.name));
    const rules = parts.slice(1).filter((p) => ruleNames.has(p.split("=")[0]));
    const patches = parts.slice(1).filter((p) => !rules.includes(p));
    const key = JSON.stringify({ game: t.game, variant: t.variant, agent: t.agent });
    return h("tr", { "data-key": key },
      h("td", null, h("input", { type: "checkbox", "aria-label": "pick for compare", checked: picked.includes(key), onchange: (e) => pick(key, e.target.checked) })),
      h("td", null, t.game), h("td", null, parts[0]), h("td", null, rules.join(", ")), h("td", null, patches.join(", ")),
      h("td", null, h("code", null, t.agent)), h("td", null, t.games.toLocaleString()), h("td", null, t.last), h("td", null, t.fingerprints.join(", ")),
      h("td", null, t.kinds.join(", ")),
      h("td", null, h("button", { type: "button", class: "open-table", onclick: () => openTable(JSON.parse(key)) }, "open")));
  }));
  replace($("comparisons"), comparisons.length ? h("h3", null, "Stored comparisons (cardlab compare)") : null,
    ...comparisons.map((c) => h("p", null, `#${c.id} ${c.game} ${c.variant}: ${c.agent_a} vs ${c.agent_b} (${c.created}): ${c.verdict}`)));
}

function pick(key, on) {
  const at = picked.indexOf(key);
  if (on && at < 0) picked.push(key);
  if (!on && at >= 0) picked.splice(at, 1);
  while (picked.length > 2) picked.shift();
  for (const box of document.querySelectorAll("#results tbody tr")) box.querySelector("input").checked = picked.includes(box.dataset.key);
  $("compare-picked").disabled = picked.length !== 2;
}

async function openTable(ref) {
  const { summary } = await api(`/api/lab/table?${new URLSearchParams(ref)}`);
  $("table-panel").hidden = false;
  replace($("table-title"), `Table: ${ref.game} ${ref.variant} · ${ref.agent}`);
  drawTable($("stored-table"), summary, ref);
}

async function comparePicked() {
  const [a, b] = picked.map((k) => JSON.parse(k));
  const result = await api("/api/lab/compare", { method: "POST", body: { a, b } });
  $("compare-panel").hidden = false;
  replace($("compare-view"),
    h("p", { id: "compare-verdict", class: "lab-verdict" }, `Verdict: ${result.verdict}`),
    h("p", { class: "muted" }, `A = ${result.agents[0]}, B = ${result.agents[1]}; diff = B − A. ${result.test}; ${result.correction}.`),
    h("table", { class: "lab-compare" },
      h("thead", null, h("tr", null, ...["pairing", "who moves first", "A", "B", "diff", "95%", "Holm p", ""].map((t) => h("th", null, t)))),
      h("tbody", null, ...result.cells.map((c) => h("tr", { class: c.significant ? "significant" : "" },
        h("td", null, c.pairing), h("td", null, c.p1), h("td", null, `${c.a_wins}/${c.a_games} = ${pct(c.a_rate)}`), h("td", null, `${c.b_wins}/${c.b_games} = ${pct(c.b_rate)}`),
        h("td", null, `${(100 * c.diff).toFixed(1)} pp`), h("td", null, `${(100 * c.ci95[0]).toFixed(1)} – ${(100 * c.ci95[1]).toFixed(1)} pp`),
        h("td", null, c.p_holm.toPrecision(3)), h("td", null, c.significant ? "differs" : ""))))));
  $("compare-panel").scrollIntoView({ block: "nearest" });
}

// ---- cards and decks ----
async function loadFiles() {
  const { files } = await api("/api/lab/files");
  replace($("file-list"), ...files.map((f) => h("option", { value: f })));
}

let checkTimer = null;
function checkSoon() {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(checkFile, 250);
}

async function checkFile() {
  const body = { game: $("file-game").value, path: $("file-path").value.trim(), text: $("file-text").value, cards: listOf($("file-cards").value) };
  try {
    const result = await api("/api/lab/check", { method: "POST", body });
    $("file-status").textContent = result.ok ? `${result.what}: no problems` : `${result.what}: ${result.problems.length} problem(s)`;
    replace($("file-problems"), ...result.problems.map((p) => h("li", { class: "lab-file-problem", "data-line": p.line ?? "", "data-rule": p.rule },
      h("strong", null, p.line ? `line ${p.line}` : p.where), " ", h("code", null, p.rule), " ", p.message)));
  } catch (exc) {
    $("file-status").textContent = exc.message;
    replace($("file-problems"));
  }
}

async function openFile() {
  const file = await api(`/api/lab/file?path=${encodeURIComponent($("file-path").value.trim())}`);
  $("file-text").value = file.text;
  checkFile();
}

async function saveFile() {
  const saved = await api("/api/lab/file", { method: "POST", body: { path: $("file-path").value.trim(), text: $("file-text").value } });
  $("file-status").textContent = `saved ${saved.path} (${saved.saved} bytes) in the lab folder`;
  loadFiles();
}

async function whatIf() {
  const values = listOf($("whatif-values").value).join(",");
  const patch = `${$("whatif-card").value.trim()}.${$("whatif-field").value.trim()}=${values}`;
  await startJob({ command: "sweep", game: $("file-game").value, patches: [patch], preset: "quick", games: Number($("whatif-games").value) || 1, engine: "reference", workers: 1 });
}

// ---- start ----
async function main() {
  meta = await api("/api/lab/meta");
  const names = Object.keys(meta.games);
  replace($("run-game"), ...names.map((n) => h("option", { value: n }, meta.games[n].title)));
  replace($("run-command"), ...["balance", "sweep", "compare", "tune"].map((c) => h("option", { value: c }, c)));
  replace($("filter-game"), h("option", { value: "" }, "all"), ...names.map((n) => h("option", { value: n }, meta.games[n].title)));
  const fileGames = names.filter((n) => meta.games[n].deck_files);
  replace($("file-game"), ...fileGames.map((n) => h("option", { value: n }, meta.games[n].title)));
  $("lab-dir").textContent = `in ${meta.lab_dir}`;
  fillGame();
  $("run-form").addEventListener("change", (e) => {
    if (["run-game", "run-command", "run-preset"].includes(e.target.id)) fillGame();
    preview();
  });
  $("run-form").addEventListener("input", preview);
  $("run-form").addEventListener("submit", (e) => {
    e.preventDefault();
    startJob(formBody()).catch((exc) => showError(exc.message));
  });
  $("job-cancel").addEventListener("click", () => currentJob && api(`/api/lab/jobs/${currentJob.id}/cancel`, { method: "POST" }).then(drawJob, (e) => showError(e.message)));
  $("job-resume").addEventListener("click", () => currentJob && api(`/api/lab/jobs/${currentJob.id}/resume`, { method: "POST" }).then(follow, (e) => showError(e.message)));
  $("filter-game").addEventListener("change", () => loadResults().catch((e) => showError(e.message)));
  $("compare-picked").addEventListener("click", () => comparePicked().catch((e) => showError(e.message)));
  $("file-text").addEventListener("input", checkSoon);
  $("file-game").addEventListener("change", checkSoon);
  $("file-cards").addEventListener("input", checkSoon);
  $("file-open").addEventListener("click", () => openFile().catch((e) => showError(e.message)));
  $("file-save").addEventListener("click", () => saveFile().catch((e) => showError(e.message)));
  $("whatif-run").addEventListener("click", () => whatIf().catch((e) => showError(e.message)));
  preview();
  loadJobs().catch(() => {});
  showTab((location.hash || "#run").slice(1));
  document.body.dataset.ready = "1";
}

main().catch((exc) => showError(exc.message));
