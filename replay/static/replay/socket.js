// A websocket that opens again when it drops: after 1 s, 2 s, 4 s, ... at most 10 s. A close
// with 4404 (nothing to follow there) ends it for good. A socket refused (4429: too many
// sockets or messages from here; 1013: the server is full) is opened and closed at once by
// the server: that opening is no success, and the wait keeps growing. Every live feed uses it:
// a match's (live.js), a hall's (hall.js) and a competition's standings (standings.js).

export const FIRST_DELAY = 1000;
export const LONGEST_DELAY = 10000;
export const NOT_FOUND = 4404;
export const REFUSED = [4429, 1013];

/** Return the websocket address of a path on this page's host, with the page's own scheme. */
export function socketUrl(path, location = window.location) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${path}`;
}

/**
 * Keep a websocket open; return {close(), send(text) → whether it was sent}.
 *
 * url(): the address to open, asked again at each opening (a feed resumes where it is);
 * onOpen(), onMessage(parsed JSON: an unreadable message is skipped), onStatus("live" |
 * "reconnecting" | "closed"), told once per change. The timers and the WebSocket class
 * can be given (the tests' own); by default the browser's.
 */
export function reconnecting(url, {
  onOpen, onMessage, onStatus, WebSocketClass = globalThis.WebSocket,
  setTimer = (callback, delay) => setTimeout(callback, delay),
  clearTimer = (timer) => clearTimeout(timer),
} = {}) {
  let socket = null;
  let delay = FIRST_DELAY;
  let refusedDelay = FIRST_DELAY; // the wait after the socket that opened last, if refused
  let timer = null;
  let stopped = false;
  let status = null;

  const report = (next) => {
    if (next === status) return;
    status = next;
    if (onStatus) onStatus(next);
  };

  const open = () => {
    timer = null;
    if (stopped) return;
    socket = new WebSocketClass(url());
    socket.addEventListener("open", () => {
      refusedDelay = delay;
      delay = FIRST_DELAY;
      report("live");
      if (onOpen) onOpen();
    });
    socket.addEventListener("message", (incoming) => {
      let message;
      try {
        message = JSON.parse(incoming.data);
      } catch {
        return; // not ours to fail on: the next message puts things right
      }
      if (onMessage) onMessage(message);
    });
    socket.addEventListener("close", (closing) => {
      socket = null;
      if (stopped) return;
      if (closing.code === NOT_FOUND) {
        stopped = true;
        report("closed");
        return;
      }
      if (REFUSED.includes(closing.code)) delay = refusedDelay;
      report("reconnecting");
      timer = setTimer(open, delay);
      delay = Math.min(delay * 2, LONGEST_DELAY);
    });
  };

  open();
  return {
    send(text) {
      if (!socket || socket.readyState !== WebSocketClass.OPEN) return false;
      socket.send(text);
      return true;
    },
    close() {
      stopped = true;
      if (timer !== null) clearTimer(timer);
      if (socket) socket.close();
      report("closed");
    },
  };
}
