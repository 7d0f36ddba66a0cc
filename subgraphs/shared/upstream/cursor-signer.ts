import { createHmac, timingSafeEqual } from "node:crypto";
import type { CursorSigner } from "./types.js";

/** HMAC-SHA256 of cursor payloads, 128 bits kept (base64url). */
export function cursorSigner(secret: string): CursorSigner {
  const sign = (payload: string) => createHmac("sha256", secret).update(payload).digest().subarray(0, 16).toString("base64url");
  return {
    sign,
    verify(payload, signature) {
      const expected = Buffer.from(sign(payload));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
