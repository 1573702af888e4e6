// The console's calls to the REST API: JSON, the session's CSRF token, a timeout.

function csrfToken() {
  const found = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]*)/);
  return found ? decodeURIComponent(found[1]) : "";
}

/**
 * Call the API; resolve {status, body}, reject when the server was not reached in time.
 *
 * reached(true | false) says whether the server answered: the console's online state.
 */
export async function api(path, { method = "GET", body, headers = {}, timeout = 8000 } = {}, reached = () => {}) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeout);
  try {
    const sending = body === undefined ? {} : {
      "Content-Type": "application/json", "X-CSRFToken": csrfToken(),
    };
    const response = await fetch(path, {
      method, credentials: "same-origin", cache: "no-store", signal: controller.signal,
      headers: { Accept: "application/json", ...sending, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let answer = null;
    try {
      answer = await response.json();
    } catch {
      answer = null;
    }
    reached(true);
    return { status: response.status, body: answer };
  } catch (error) {
    reached(false);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
