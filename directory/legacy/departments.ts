import { HttpError, type Router } from "../http/router.js";

/**
 * Legacy departments (`/api/v3/departments`, `/api/v3/departments/{id}`, `/api/v3/departments/tree`):
 * production stopped answering them in September 2026 (its departments migration guide), pointing
 * to the current API's `/departments`. Production documents no status for a route past its sunset,
 * so the in-process service answers 410 Gone (docs/decisions.md#legacy-departments-sunset), with the
 * legacy error body `{status, message}`, the `Sunset` date (RFC 8594) and a `Link` to the successor, whatever the request's
 * key or parameters: the route is gone, not refused.
 */

/** The day the legacy departments stopped answering, as an HTTP date. */
export const DEPARTMENTS_SUNSET = "Tue, 01 Sep 2026 00:00:00 GMT";

const GONE_MESSAGE =
  "The legacy departments API (/api/v3/departments) stopped answering in September 2026: read departments through the current API's /departments, and their members through /employees filtered by applicableJobPosition.department.id.";

export function registerDepartmentRoutes(router: Router): void {
  const gone = () => {
    throw new HttpError(410, { status: 410, message: GONE_MESSAGE }, { sunset: DEPARTMENTS_SUNSET, link: '</departments>; rel="successor-version"' });
  };
  // `{id}` takes `/api/v3/departments/tree` too: gone as well
  for (const path of ["/api/v3/departments", "/api/v3/departments/{id}"]) router.get(path, gone);
}
