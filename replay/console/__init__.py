"""The referee's console: the page that records a match, and its offline service worker."""
