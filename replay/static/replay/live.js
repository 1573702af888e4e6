// A match's live feed: /ws/matches/{id}/?after=SEQ, each event applied once and in order.
//
// The server sends every event after `after`, then each new one, and a
// {"type": "head", "seq": n} every 15 s. A gap (a seq beyond the next one, or a head
// beyond the last applied) asks for the range again with {"type": "resume"}; a
// dropped socket is opened again (socket.js) from the last seq applied. The page is
// told "live" or "reconnecting" to show it.

import { reconnecting, socketUrl } from "./socket.js";

/** Return the websocket address of a match's feed after `seq`, with the page's own scheme. */
export function liveUrl(matchId, after, location = window.location) {
  return socketUrl(`/ws/matches/${encodeURIComponent(matchId)}/?after=${after}`, location);
}

/**
 * Return the reader of a match's feed: {handle(message), last(), opened()}.
 *
 * It applies each event once and in order (onEvent(message) per new seq) and asks
 * resume(after) for the range again when a message was lost: once per gap, and again
 * when the server's head shows the ask itself went missing. opened(): a new socket,
 * which starts from the last seq applied.
 */
export function feedReader({ after = 0, onEvent, onHead, onVoid, resume }) {
  let last = after;
  let asked = -1; // the seq a resume was last asked after: asked once per gap

  const ask = () => {
    if (asked === last) return;
    if (resume(last)) asked = last;
  };

  return {
    handle(message) {
      if (message.type === "event") {
        if (message.seq <= last) return; // already applied
        if (message.seq > last + 1) {
          ask(); // a message was lost: the range again, from the last one applied
          return;
        }
        last = message.seq;
        asked = -1;
        if (onEvent) onEvent(message);
      } else if (message.type === "void") {
        if (onVoid) onVoid(message); // a decision voided the match: nothing more is recorded
      } else if (message.type === "head") {
        if (onHead) onHead(message.seq);
        if (message.seq > last) {
          asked = -1; // ask again: a resume asked before may itself have been lost
          ask();
        }
      }
    },
    opened() {
      asked = -1;
    },
    last: () => last,
  };
}

/**
 * Follow a match live; return {close(), last(), send(text) → whether it was sent}.
 *
 * after: the last seq the page already shows; onEvent(message) once per new seq, in
 * order; onHead(seq) on the server's clock; onVoid({replacement}) once a decision has
 * voided the match (the answer to a console's heartbeat); onStatus("live" |
 * "reconnecting" | "closed").
 * options: what reconnecting() takes besides (the tests' WebSocket and timers).
 */
export function connectLive(matchId, { after = 0, onEvent, onHead, onVoid, onStatus, ...options } = {}) {
  let socket = null;
  const reader = feedReader({
    after, onEvent, onHead, onVoid,
    resume: (from) => socket.send(JSON.stringify({ type: "resume", after: from })),
  });
  socket = reconnecting(() => {
    reader.opened();
    return liveUrl(matchId, reader.last(), options.location);
  }, { ...options, onStatus, onMessage: reader.handle });
  return { close: () => socket.close(), last: reader.last, send: (text) => socket.send(text) };
}
