/**
 * Our gateway's environment in the benchmarks: the production per-client limits off (rate, writes,
 * cost) and trusted documents off, since one load generator is one client and sends ad-hoc texts.
 * Hive Gateway, measured beside it, has none of them.
 */
export const LIMITS_OFF = { GATEWAY_RATE_LIMIT: "0", GATEWAY_WRITE_RATE_LIMIT: "0", GATEWAY_COST_LIMIT: "0", GATEWAY_TRUSTED_DOCUMENTS: "off" };

/**
 * The load generator's headers. It asks for uncompressed answers: Hive Gateway serves none
 * compressed, ours compresses what a browser accepts (platform/compression.ts), so that the two
 * are compared doing the same work.
 */
export const CLIENT_HEADERS = { "content-type": "application/json", "accept-encoding": "identity" };
