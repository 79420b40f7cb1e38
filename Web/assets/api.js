// Talking to `nagi serve` (docs/pacer.md § 6): same-origin requests only, so the session cookie goes with each
// one; the token never leaves the address bar it came in.

/** A refusal from the server: the CLI's one line, and the parameter at fault when there is one. */
export class APIError extends Error {
  constructor(message, parameter, status) {
    super(message);
    this.name = "APIError";
    this.parameter = parameter ?? null;
    this.status = status;
  }
}

/** The query to pass on to the API: the page's own, less the token (the cookie carries it). */
export function apiQuery(query) {
  const copy = new URLSearchParams(query);
  copy.delete("token");
  return copy.toString();
}

/** Throws the server's refusal as an APIError, or returns the response. */
export async function checked(response) {
  if (response.ok) return response;
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  const message = body && typeof body.error === "string" ? body.error : `the server answered ${response.status} ${response.statusText}`;
  throw new APIError(message, body && body.parameter, response.status);
}

/** GETs (or sends) and parses JSON, throwing APIError on a refusal. */
export async function getJSON(url, options) {
  return (await checked(await fetch(url, options))).json();
}

/** GETs (or sends) and returns the text, throwing APIError on a refusal. */
export async function getText(url, options) {
  return (await checked(await fetch(url, options))).text();
}

/** What to show a person for any error. */
export function errorText(error) {
  if (error instanceof APIError) return error.message;
  if (error instanceof TypeError) return "The server cannot be reached.";
  return String(error && error.message ? error.message : error);
}
