// The rules page: /rules/{game}. The summary is an HTML fragment shipped with cardlab
// (each game package's web/rules.html), served by the server at /api/rules/{game}.

import { api, h, replace, idFromPath, installPopovers, setGlossary, withTerms } from "./common.js";

const game = idFromPath("rules");
const $ = (id) => document.getElementById(id);

async function main() {
  const box = $("rules");
  if (!/^[a-z0-9_-]+$/i.test(game)) {
    replace(box, h("p", null, "No game named in the address."));
    return;
  }
  let title = game;
  let games = [];
  let titles = {};
  try {
    const meta = await api("/api/meta");
    if (meta && meta.games && typeof meta.games === "object") {
      games = Object.keys(meta.games);
      for (const name of games) titles[name] = (meta.games[name] && meta.games[name].title) || name;
      if (meta.games[game] && meta.games[game].title) title = meta.games[game].title;
    }
  } catch {
    /* the rules still load without the metadata */
  }
  document.title = `${title} — rules · cardlab`;
  replace($("title"), `Rules — ${title}`);
  replace(
    $("links"),
    h("a", { href: "/" }, "Lobby"),
    games
      .filter((name) => name !== game)
      .map((name) => h("a", { href: `/rules/${encodeURIComponent(name)}` }, `Rules: ${titles[name] || name}`)),
  );
  try {
    const response = await fetch(`/api/rules/${encodeURIComponent(game)}`, { headers: { Accept: "text/html" } });
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    let html = await response.text();
    if ((response.headers.get("Content-Type") || "").includes("json")) {
      // tolerate a JSON wrapper such as {"html": "..."}
      const data = JSON.parse(html);
      html = typeof data === "string" ? data : String((data && (data.html || data.content)) || "");
    }
    // The fragment is a static file shipped with cardlab (trusted content, not user data).
    const template = document.createElement("template");
    template.innerHTML = html;
    for (const node of template.content.querySelectorAll("script")) node.remove();
    replace(box, template.content);
  } catch (exc) {
    replace(box, h("p", null, `No rules summary for ${game}: ${exc.message}`));
  }
  try {
    showGlossary(box, await api(`/api/glossary/${encodeURIComponent(game)}`));
  } catch {
    /* the summary stands without the glossary */
  }
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}

/** How the game is won (at the top), every keyword, skill and key rule, then every card in a player's
 * words (at the end); a term named inside an explanation or a card's text explains itself too. */
function showGlossary(box, data) {
  const terms = (data && data.glossary) || {};
  setGlossary(terms);
  installPopovers();
  if (data && data.how_to_win) box.prepend(h("p", { id: "how-to-win", class: "how-to-win-rules" }, h("b", null, "How to win: "), data.how_to_win));
  const names = Object.keys(terms);
  if (!names.length) return;
  box.appendChild(
    h(
      "section",
      { id: "glossary", class: "glossary" },
      h("h2", null, "Glossary"),
      h(
        "dl",
        null,
        names.map((name) => [
          h("dt", { id: `term-${name.replace(/[^A-Za-z0-9]+/g, "-")}`, "data-glossary-term": name }, name),
          h("dd", null, withTerms(String(terms[name]), names.filter((other) => other !== name))),
        ]),
      ),
    ),
  );
  const cards = (data && Array.isArray(data.cards) && data.cards) || [];
  if (!cards.length) return;
  box.appendChild(
    h(
      "section",
      { id: "cards", class: "glossary card-list" },
      h("h2", null, `Cards (${cards.length})`),
      h(
        "dl",
        null,
        cards.map((card) => [
          h("dt", { id: `card-${String(card.id).replace(/[^A-Za-z0-9]+/g, "-")}`, "data-card": card.id }, card.name),
          h(
            "dd",
            null,
            h("div", { class: "card-stats" }, card.stats),
            (card.abilities || []).map((line) => h("div", { class: "card-ability" }, withTerms(String(line), names))),
          ),
        ]),
      ),
    ),
  );
}

main();
