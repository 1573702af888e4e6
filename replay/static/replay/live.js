// A match's live feed: /ws/matches/{id}/?after=SEQ, each event applied once and in order.
//
// The server sends every event after `after`, then each new one, and a
// {"type": "head", "seq": n} every 15 s. A gap (a seq beyond the next one, or a head
// beyond the last applied) asks for the range again with {"type": "resume"}; a
// dropped socket is opened again after 1 s, 2 s, 4 s, ... at most 10 s, from the last
// seq applied. The page is told "live" or "reconnecting" to show it.

const FIRST_DELAY = 1000;
const LONGEST_DELAY = 10000;
const NOT_FOUND = 4404;

/** Return the websocket address of a match's feed after `seq`, with the page's own scheme. */
export function liveUrl(matchId, after) {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  const id = encodeURIComponent(matchId);
  return `${scheme}//${window.location.host}/ws/matches/${id}/?after=${after}`;
}

/**
 * Follow a match live; return {close(), last()}.
 *
 * after: the last seq the page already shows; onEvent(message) once per new seq, in
 * order; onHead(seq) on the server's clock; onStatus("live" | "reconnecting" | "closed").
 */
export function connectLive(matchId, { after = 0, onEvent, onHead, onStatus } = {}) {
  let last = after;
  let socket = null;
  let delay = FIRST_DELAY;
  let timer = null;
  let stopped = false;
  let status = null;
  let asked = -1; // the seq a resume was last asked after: asked once per gap

  const report = (next) => {
    if (next === status) return;
    status = next;
    if (onStatus) onStatus(next);
  };

  const resume = () => {
    if (asked === last || !socket || socket.readyState !== WebSocket.OPEN) return;
    asked = last;
    socket.send(JSON.stringify({ type: "resume", after: last }));
  };

  const handle = (message) => {
    if (message.type === "event") {
      if (message.seq <= last) return; // already applied
      if (message.seq > last + 1) {
        resume(); // a message was lost: the range again, from the last one applied
        return;
      }
      last = message.seq;
      asked = -1;
      if (onEvent) onEvent(message);
    } else if (message.type === "head") {
      if (onHead) onHead(message.seq);
      if (message.seq > last) {
        asked = -1; // ask again: a resume asked before may itself have been lost
        resume();
      }
    }
  };

  const open = () => {
    timer = null;
    if (stopped) return;
    asked = -1;
    socket = new WebSocket(liveUrl(matchId, last));
    socket.addEventListener("open", () => {
      delay = FIRST_DELAY;
      report("live");
    });
    socket.addEventListener("message", (incoming) => {
      let message;
      try {
        message = JSON.parse(incoming.data);
      } catch {
        return; // not ours to fail on: the next message or head puts things right
      }
      handle(message);
    });
    socket.addEventListener("close", (closing) => {
      socket = null;
      if (stopped) return;
      if (closing.code === NOT_FOUND) {
        stopped = true;
        report("closed");
        return;
      }
      report("reconnecting");
      timer = setTimeout(open, delay);
      delay = Math.min(delay * 2, LONGEST_DELAY);
    });
  };

  open();
  return {
    close() {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (socket) socket.close();
      report("closed");
    },
    last: () => last,
  };
}
