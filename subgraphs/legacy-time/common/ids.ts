/**
 * Legacy ids are integers >= 1 (docs/interface.md#legacy-conventions); the graph carries them as the current API's string
 * ids. A key that is not such an integer cannot name a legacy resource: it is answered without
 * asking the upstream (null for a read, NOT_FOUND for a write).
 */
const LEGACY_ID = /^[1-9]\d{0,14}$/;

export function isLegacyId(id: string): boolean {
  return LEGACY_ID.test(id);
}

/** A graph id as the legacy API's integer, or null when it cannot be one. */
export function legacyInt(id: string): number | null {
  return isLegacyId(id) ? Number(id) : null;
}

/** A legacy integer reference as the graph's entity reference. */
export function ref(id: number | null | undefined): { id: string } | null {
  return id === null || id === undefined ? null : { id: String(id) };
}
