// The replay page: step through a match's events, the table before and after each one.
//
// Everything comes embedded in the page (json_script "replay-timeline"): the events,
// the scoreboard after each one as amended ("frames", index = seq) and, where it
// differed, as seen live ("live", by seq). No request is made while stepping.

import { drawTable, lastKnown } from "./table.js";
import { eventInWords, rulingInWords, shotInWords } from "./words.js";
import { isVoidGame } from "./scoreboard.js";

// Playback waits the recorded time between two events, divided by the speed, within these.
const SHORTEST_WAIT = 150;
const LONGEST_WAIT = 8000;

function data(id) {
  const node = document.getElementById(id);
  return node ? JSON.parse(node.textContent) : null;
}

/** Return a recorded time of day in UTC, as the page's amendments give theirs. */
function timeInWords(text) {
  const moment = new Date(text);
  if (Number.isNaN(moment.getTime())) return "";
  const time = moment.toLocaleTimeString(document.documentElement.lang, { timeZone: "UTC", hour12: false });
  return `${time} UTC`;
}

class Replay {
  constructor(root, page, timeline) {
    this.root = root;
    this.page = page;
    this.timeline = timeline;
    this.head = timeline.head;
    this.view = page.view === "live" ? "live" : "amended";
    this.shots = new Map(timeline.shots.map((shot) => [shot.seq, shot]));
    this.finalGames = timeline.frames[timeline.head].games;
    this.known = {}; // per view: where each ball was last known to be after each seq
    this.timer = null;
    this.els = {
      before: document.getElementById("table-before"),
      after: document.getElementById("table-after"),
      moment: document.getElementById("moment"),
      ruling: document.getElementById("ruling"),
      differs: document.getElementById("differs"),
      scores: document.querySelector("#scores tbody"),
      slider: document.getElementById("seq"),
      output: document.getElementById("seq-out"),
      game: document.getElementById("game"),
      speed: document.getElementById("speed"),
      play: document.getElementById("play"),
      list: root.querySelector(".shot-list ol"),
      legend: document.getElementById("table-legend"),
    };
    this.bind();
    if (this.view === "live") this.relabel();
    this.show(page.seq, { scroll: true });
  }

  frame(seq, view = this.view) {
    if (view === "live" && this.timeline.live[seq]) return this.timeline.live[seq];
    return this.timeline.frames[seq];
  }

  event(seq) {
    return seq >= 1 ? this.timeline.events[seq - 1] : null;
  }

  knownAt(seq) {
    // A ball that moved without a rest position is drawn where it was last known (not
    // confirmed): worked out once per view, from the first event on.
    if (!this.known[this.view]) {
      const known = [this.frame(0).positions];
      for (let at = 1; at <= this.head; at += 1) {
        known.push(lastKnown(known[at - 1], this.frame(at).positions, this.inForce(at)));
      }
      this.known[this.view] = known;
    }
    return this.known[this.view][seq];
  }

  inForce(seq) {
    // As amended, a shot is what its last amendment says (a retracted one moved nothing).
    const event = this.event(seq);
    const shot = this.view === "amended" && event.type === "shot" ? this.shots.get(seq) : null;
    if (shot && shot.retracted) return { type: "shot_retracted" };
    if (shot && shot.amended && shot.amended_by) {
      return { type: "shot", ...this.event(shot.amended_by.seq).facts };
    }
    return event;
  }

  bind() {
    for (const button of this.root.querySelectorAll("button[data-step]")) {
      button.addEventListener("click", () => this.step(button.dataset.step));
    }
    this.els.slider.addEventListener("input", () => this.show(Number(this.els.slider.value)));
    this.els.game.addEventListener("change", () => this.show(Number(this.els.game.value)));
    this.els.play.addEventListener("click", () => this.toggle());
    for (const radio of this.root.querySelectorAll("input[name=view]")) {
      radio.addEventListener("change", () => {
        this.view = radio.value;
        this.relabel();
        this.show(this.seq);
      });
    }
    this.els.list.addEventListener("click", (event) => {
      const item = event.target.closest("li[data-seq]");
      if (!item) return;
      event.preventDefault();
      this.stop();
      this.show(Number(item.dataset.seq), { scroll: true });
    });
    document.addEventListener("keydown", (event) => this.key(event));
  }

  key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    // The slider, the lists and the radios keep their own keys; but space does nothing on a
    // slider, and a slider just dragged keeps the focus: there space still plays and pauses.
    const slider = target === this.els.slider;
    if (slider && event.key !== " ") return;
    if (!slider && target.closest && target.closest("input, select, textarea")) return;
    const steps = {
      ArrowRight: "next", ArrowLeft: "previous", Home: "first", End: "last",
      PageDown: "next-game", PageUp: "previous-game",
    };
    if (steps[event.key]) {
      event.preventDefault();
      this.step(steps[event.key]);
    } else if (event.key === " " && !(target.closest && target.closest("button, a"))) {
      event.preventDefault();
      this.toggle();
    }
  }

  step(how) {
    this.stop();
    const games = this.timeline.games;
    const current = games.filter((game) => game.start <= this.seq).pop();
    const targets = {
      next: this.seq + 1,
      previous: this.seq - 1,
      first: 0,
      last: this.head,
      "next-game": (games.find((game) => game.start > this.seq) || { start: this.head }).start,
      "previous-game": current && current.start < this.seq ? current.start
        : (games.filter((game) => game.start < this.seq).pop() || { start: 0 }).start,
    };
    this.show(targets[how], { scroll: true });
  }

  show(seq, { scroll = false } = {}) {
    this.seq = Math.max(0, Math.min(this.head, Number.isFinite(seq) ? seq : 0));
    const seqNow = this.seq;
    const event = this.event(seqNow);
    const before = this.frame(Math.max(seqNow - 1, 0));
    const after = this.frame(seqNow);
    const shot = event && event.type === "shot" ? this.shots.get(seqNow) : null;
    const ruling = shot ? this.rulingOf(shot) : null;
    const common = {
      balls: this.page.balls, names: this.page.names, pinPitch: this.page.pin_pitch,
      legend: this.els.legend,
    };
    drawTable(this.els.before, {
      ...common, positions: before.positions, known: this.knownAt(Math.max(seqNow - 1, 0)),
    });
    drawTable(this.els.after, {
      ...common, positions: after.positions, known: this.knownAt(seqNow),
      fallen: ruling ? ruling.pins : [],
    });
    this.els.moment.textContent = this.momentInWords(seqNow, event, shot);
    this.els.ruling.textContent = shot
      ? this.shotWords(shot) + this.correctionInWords(shot)
      : (event ? this.eventWords(event) : gettext("Before the first event"));
    this.showScores(after);
    this.showDifference(seqNow);
    this.els.slider.value = String(seqNow);
    this.els.output.textContent = `${seqNow} / ${this.head}`;
    const game = this.timeline.games.filter((entry) => entry.start <= seqNow).pop();
    if (game) this.els.game.value = String(game.start);
    this.mark(seqNow, scroll);
    this.remember();
    this.root.dataset.seq = String(seqNow);
  }

  relabel() {
    // The shot list words each corrected or void shot as the view shows it: as seen live,
    // the first ruling and the points it scored then; as amended, the ruling in force.
    for (const shot of this.timeline.shots) {
      if (!shot.amended && !shot.retracted && !shot.void) continue;
      const words = this.els.list.querySelector(`li[data-seq="${shot.seq}"] .shot-what`);
      if (words) words.textContent = this.shotWords(shot);
    }
  }

  shotWords(shot) {
    // As amended, a void shot scored nothing: it says why rather than claim its points.
    if (this.view === "amended" && shot.void) {
      return shotInWords({ ...shot, amended: false }, this.page.names, this.finalGames);
    }
    return rulingInWords(this.rulingOf(shot), this.page.names, shot.player);
  }

  eventWords(event) {
    // A correction names its shot with its game: the shot may be in another game than this.
    const shot = event.shot ? this.shots.get(event.shot) : null;
    return eventInWords(event, this.page.names,
      { game: shot ? shot.game : null, number: shot ? shot.number : null });
  }

  rulingOf(shot) {
    // As seen live, a shot was shown with its first ruling: amendments came later.
    return this.view === "live" && shot.original ? shot.original : shot.ruling;
  }

  correctionInWords(shot) {
    if (this.view === "live") {
      if (shot.amended) return " " + gettext("(amended later)");
      if (shot.retracted) return " " + gettext("(retracted later)");
      return "";
    }
    if (shot.retracted) {
      return " " + interpolate(gettext("(retracted by %(by)s: %(reason)s)"),
        { by: shot.retracted_by.by, reason: shot.reason || "" }, true);
    }
    if (shot.amended) {
      const original = rulingInWords(shot.original, this.page.names, shot.player);
      return " " + interpolate(gettext("(amended by %(by)s: %(reason)s; first ruled: %(original)s)"),
        { by: shot.amended_by.by, reason: shot.reason || "", original }, true);
    }
    return "";
  }

  momentInWords(seq, event, shot) {
    if (!event) return gettext("Before the first event");
    const time = timeInWords(event.at);
    let words;
    if (shot) {
      const name = this.page.names[shot.player] || shot.player;
      words = interpolate(gettext("Event %(seq)s of %(head)s · game %(game)s · shot by %(name)s · %(time)s"),
        { seq, head: this.head, game: shot.game, name, time }, true);
    } else {
      words = interpolate(gettext("Event %(seq)s of %(head)s · %(time)s"),
        { seq, head: this.head, time }, true);
    }
    // An event that waited in the console's queue: when it was confirmed at the table too.
    const confirmed = event.confirmed_at ? timeInWords(event.confirmed_at) : "";
    if (!confirmed || confirmed === time) return words;
    return words + " " + interpolate(gettext("(confirmed at the table at %(time)s)"), { time: confirmed }, true);
  }

  showScores(frame) {
    const rows = frame.games.map((game) => {
      const row = document.createElement("tr");
      const label = document.createElement("th");
      label.scope = "row";
      // A void game (started once the match was decided) has no score of its own.
      const voided = isVoidGame(game);
      label.textContent = voided ? interpolate(gettext("Game %s (void)"), [game.game])
        : interpolate(gettext("Game %s"), [game.game]);
      if (voided) row.className = "void";
      row.append(label);
      for (const player of ["A", "B"]) {
        const cell = document.createElement("td");
        cell.textContent = voided ? "—" : String(game.score[player]);
        cell.dataset.player = player;
        if (game.winner === player) cell.classList.add("winner");
        row.append(cell);
      }
      return row;
    });
    if (!rows.length) {
      const row = document.createElement("tr");
      const cell = document.createElement("td");
      cell.colSpan = 3;
      cell.textContent = gettext("No game started yet");
      row.append(cell);
      rows.push(row);
    }
    this.els.scores.replaceChildren(...rows);
  }

  showDifference(seq) {
    const live = this.timeline.live[seq];
    const note = this.els.differs;
    if (!live) {
      note.hidden = true;
      note.textContent = "";
      return;
    }
    const other = this.view === "live" ? this.timeline.frames[seq] : live;
    const scores = other.games.filter((game) => !isVoidGame(game))
      .map((game) => `${game.score.A}:${game.score.B}`).join(", ");
    note.hidden = false;
    note.textContent = this.view === "live"
      ? interpolate(gettext("As amended, this moment reads differently: %s."), [scores])
      : interpolate(gettext("As seen live, this moment read differently: %s."), [scores]);
  }

  mark(seq, scroll) {
    const list = this.els.list;
    const current = list.querySelector("li.current");
    if (current) {
      current.classList.remove("current");
      current.querySelector("a").removeAttribute("aria-current");
    }
    const item = list.querySelector(`li[data-seq="${seq}"]`);
    if (!item) return;
    item.classList.add("current");
    item.querySelector("a").setAttribute("aria-current", "step");
    if (scroll) {
      // Within the list only (it is the items' offset parent): the page stays where it is.
      const top = item.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - item.offsetHeight) {
        list.scrollTop = top - list.clientHeight / 2;
      }
    }
  }

  remember() {
    const url = new URL(window.location.href);
    url.searchParams.set("seq", String(this.seq));
    if (this.view === "live") url.searchParams.set("view", "live");
    else url.searchParams.delete("view");
    history.replaceState(null, "", url);
    // The language switch comes back here: to this event and view, not the first one.
    for (const next of document.querySelectorAll("form.language input[name=next]")) {
      next.value = url.pathname + url.search;
    }
  }

  toggle() {
    if (this.timer) this.stop();
    else this.play();
  }

  play() {
    if (this.seq >= this.head) this.show(0);
    this.els.play.setAttribute("aria-pressed", "true");
    this.els.play.textContent = "⏸ " + gettext("Pause");
    const tick = () => {
      if (this.seq >= this.head) {
        this.stop();
        return;
      }
      this.show(this.seq + 1, { scroll: true });
      this.timer = setTimeout(tick, this.wait(this.seq));
    };
    this.timer = setTimeout(tick, SHORTEST_WAIT);
  }

  stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.els.play.setAttribute("aria-pressed", "false");
    this.els.play.textContent = "▶ " + gettext("Play");
  }

  wait(seq) {
    // The time between this event and the next as recorded, at the chosen speed.
    const now = this.event(seq);
    const next = this.event(seq + 1);
    if (!now || !next) return SHORTEST_WAIT;
    // Played at the table's pace: an event that waited in a queue was confirmed earlier.
    const gap = Date.parse(next.confirmed_at || next.at) - Date.parse(now.confirmed_at || now.at);
    const speed = Number(this.els.speed.value) || 1;
    if (!Number.isFinite(gap) || gap <= 0) return SHORTEST_WAIT;
    return Math.max(SHORTEST_WAIT, Math.min(LONGEST_WAIT, gap / speed));
  }
}

/** Start the replay of the page's match (`replay-page`, `replay-timeline`); return it. */
export function start() {
  const root = document.getElementById("replay");
  const page = data("replay-page");
  const timeline = data("replay-timeline");
  if (!(root && page && timeline)) return null;
  root.classList.add("ready");
  window.carambolReplay = new Replay(root, page, timeline);
  return window.carambolReplay;
}

export { Replay };
