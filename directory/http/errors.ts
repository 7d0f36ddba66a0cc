/**
 * Error bodies of the in-process service in the style of the API a path belongs to: problem
 * details (RFC 9457, docs/interface.md#problem-details) for the current API, the token endpoint and the admin routes;
 * `{status, message}` for the legacy API.
 */

export function problemBody(status: number, title: string, detail?: string, errors?: Record<string, string[]>) {
  return {
    type: `https://httpstatuses.io/${status}`,
    title,
    status,
    ...(detail !== undefined ? { detail } : {}),
    ...(errors !== undefined ? { errors } : {}),
  };
}

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  412: "Precondition Failed",
  413: "Payload Too Large",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** The error body of a status in the style of the API the path belongs to. */
export function errorBodyFor(path: string, status: number, detail?: string): unknown {
  const title = TITLES[status] ?? "Error";
  if (path.startsWith("/service-api") || path.startsWith("/connect") || path.startsWith("/_admin")) {
    return problemBody(status, title, detail);
  }
  return { status, message: detail ?? title };
}
