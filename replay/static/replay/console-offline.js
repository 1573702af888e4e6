// The console reopens offline: its service worker keeps the page and what the page loaded.

/** Install the service worker that keeps the console for an offline reopen; mark it ready. */
export function registerServiceWorker(root) {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  const script = root.dataset.sw;
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data && "kept" in event.data) root.dataset.offlineReady = "true";
  });
  navigator.serviceWorker.register(script, { scope: script.replace(/[^/]*$/, "") })
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      // This page and what it loaded came before the worker: it keeps them now.
      const loaded = [window.location.href,
        ...Array.from(document.querySelectorAll("script[src]"), (node) => node.src),
        ...Array.from(document.querySelectorAll("link[rel=stylesheet]"), (node) => node.href)];
      registration.active.postMessage({ keep: loaded });
    })
    .catch(() => {
      // Without a service worker the console still works; it only cannot reopen offline.
    });
}
