/**
 * The caller's credential as the directory reads it, whatever its spelling (docs/security.md#callers).
 * The `Authorization` scheme is case-insensitive and the spaces around and after it are free
 * (RFC 9110 §11.1), so `bearer T`, `BEARER  T` and ` Bearer T ` are one caller: the limits, the
 * refused-token cache and the caller's upstream identity are keyed on this form, and this form is
 * what is forwarded.
 */
export function canonicalAuthorization(header: string | undefined | null): string | undefined {
  if (header === undefined || header === null) return undefined;
  const trimmed = header.trim();
  if (trimmed === "") return undefined;
  const match = /^(\S+)(?:\s+([\s\S]*))?$/.exec(trimmed)!;
  const scheme = match[1]!.toLowerCase() === "bearer" ? "Bearer" : match[1]!;
  const credentials = (match[2] ?? "").replace(/\s+/g, " ");
  return credentials === "" ? scheme : `${scheme} ${credentials}`;
}

/** A bearer credential (`Bearer <token>`, any spelling of the scheme): what forward mode needs. */
export function isBearer(authorization: string | undefined): boolean {
  return authorization !== undefined && /^Bearer \S/.test(canonicalAuthorization(authorization) ?? "");
}
