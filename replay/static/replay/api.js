// Every page's calls to the REST API: JSON, the session's CSRF token, a timeout.

/** Return the session's CSRF token: its cookie's, else the page's form field's, else "". */
export function csrfToken(doc = document) {
  const found = doc.cookie.match(/(?:^|;\s*)csrftoken=([^;]*)/);
  if (found) return decodeURIComponent(found[1]);
  const field = doc.querySelector("input[name=csrfmiddlewaretoken]");
  return field ? field.value : "";
}

/** Return the seconds a Retry-After header asks for, or null (none, or not in seconds). */
export function retryAfterOf(header) {
  const text = (header || "").trim();
  return /^\d+$/.test(text) ? Number(text) : null;
}

/**
 * Call the API; resolve {status, body, retryAfter}, reject when the server was not reached
 * in time. body: the answer's JSON, null when it has none; retryAfter: the seconds a 503
 * or a 429 asks to wait (Retry-After), else null. A call with a body sends it as JSON
 * with the CSRF token.
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
    return {
      status: response.status, body: answer,
      retryAfter: retryAfterOf(response.headers.get("Retry-After")),
    };
  } catch (error) {
    reached(false);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
