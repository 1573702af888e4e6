// The home page's "Live now", kept up to date without a reload: every few seconds
// (`data-every`) it asks /live.json for the matches under way, each with its card as the
// server draws it, and puts in the cards of the matches that started or moved (a new
// `seq`) and takes out those that ended. A poll, not a socket: no socket announces that a
// match started, and one small answer for the few matches on at once costs less than a
// socket per card. It waits while the page is hidden and looks again when it is shown.

let section = null;

function cardOf(html) {
  const template = document.createElement("template");
  template.innerHTML = html.trim();
  return template.content.firstElementChild;
}

/** Draw the matches under way, in the server's order, keeping the cards that did not change. */
function draw(matches) {
  const list = section.querySelector("[data-live-list]");
  const before = [...list.querySelectorAll("[data-match]")];
  const shown = new Map(before.map((card) => [card.dataset.match, card]));
  const cards = matches.map((match) => {
    const card = shown.get(match.id);
    return card && card.dataset.seq === String(match.seq) ? card : cardOf(match.html);
  });
  // Untouched when nothing changed, so a link being focused keeps its focus.
  if (cards.length !== before.length || cards.some((card, i) => card !== before[i])) {
    list.replaceChildren(...cards);
  }
  list.hidden = cards.length === 0;
  section.querySelector("[data-live-empty]").hidden = cards.length > 0;
}

async function look() {
  const answer = await fetch(section.dataset.url, { headers: { Accept: "application/json" }, cache: "no-store" });
  if (answer.ok) draw((await answer.json()).matches);
}

/** Keep the home page's "Live now" (`shown`: its #live-now) up to date. */
export function start(shown = document.getElementById("live-now")) {
  if (!shown) return;
  section = shown;
  const every = Math.max(1, Number(section.dataset.every) || 5) * 1000;
  let timer = null;
  const next = () => {
    timer = setTimeout(async () => {
      try {
        await look();
      } catch {
        // The network is down: the cards stay as they are and the next look tries again.
      }
      if (!document.hidden) next();
      else timer = null;
    }, every);
  };
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && timer === null) {
      look().catch(() => {});
      next();
    }
  });
  next();
}
