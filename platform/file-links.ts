import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * File links (docs/security.md#file-links): how a file of the directory (a portrait, a document,
 * a legacy picture) reaches a client without the upstream's address or any credential in an
 * answer. A subgraph that answers a file field mints a link to the facade's own route,
 * `<public base>/files/<sealed>`; the gateway forwards a request of that route to the subgraph
 * that serves files, which opens the link and streams the bytes from the upstream.
 *
 * The sealed part is the file's target and expiry, encrypted and authenticated with AES-256-GCM
 * under a key derived from FILE_LINK_SECRET: its tag is the signature (a link altered by one bit
 * does not open), and the encryption keeps the upstream's path and its file token out of the
 * link. The route refuses a link that does not open or has expired before any upstream call.
 */

/** the route of the gateway, and of the subgraph that serves files, below which every link lies */
export const FILES_PATH = "/files/";

/** A client's conditional headers, passed from the gateway's route to the upstream's read: a file the browser holds answers 304 without its bytes. */
export const CONDITIONAL_HEADERS = ["if-none-match", "if-modified-since"] as const;

/** What a link lets its holder fetch, and how the subgraph that opens it reads it upstream. */
export type FileTarget =
  /** a file address the upstream gave, carrying its own token (`links.portrait`): path and query, read without credentials */
  | { kind: "tokened"; path: string }
  /** a file of the current API by id (an employment's or a job position's document), read with the caller's rights */
  | { kind: "current"; id: string }
  /** a file of the legacy API by id (a legacy user's picture), read with the facade's API key */
  | { kind: "legacy"; id: string };

interface Sealed {
  t: FileTarget;
  /** expiry, Unix seconds */
  e: number;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** the longest sealed part accepted: far above any link minted here */
const MAX_SEALED = 2048;

/** Why a link was refused; each is a 4xx of its own at the route. */
export type LinkRefusal = "malformed" | "forged" | "expired";

/** A process's key when no secret is set (FILE_LINK_SECRET, SUBGRAPH_CURSOR_SECRET): the subgraphs of one process share it. */
const PROCESS_KEY = randomBytes(32).toString("base64url");

export class FileLinks {
  private readonly key: Buffer;

  /** `secret`: FILE_LINK_SECRET, else SUBGRAPH_CURSOR_SECRET (the key is derived for this use alone), else the process's own */
  constructor(
    secret: string | null,
    readonly ttlSeconds: number,
  ) {
    this.key = createHash("sha256").update(`directory-graph file links\0${secret ?? PROCESS_KEY}`).digest();
  }

  /** The link to `target` below `base` (the facade's public origin), good for `ttlSeconds` from `now`. */
  mint(base: string, target: FileTarget, now = Date.now()): string {
    const sealed: Sealed = { t: target, e: Math.floor(now / 1000) + this.ttlSeconds };
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(sealed), "utf8"), cipher.final()]);
    const token = Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url");
    return `${base.replace(/\/+$/, "")}${FILES_PATH}${token}`;
  }

  /** The target of a link's sealed part (what follows FILES_PATH) and its expiry (Unix seconds), or why it is refused. */
  open(token: string, now = Date.now()): { target: FileTarget; expires: number } | { refused: LinkRefusal } {
    if (token.length === 0 || token.length > MAX_SEALED || !/^[A-Za-z0-9_-]+$/.test(token)) return { refused: "malformed" };
    const raw = Buffer.from(token, "base64url");
    if (raw.length <= IV_BYTES + TAG_BYTES) return { refused: "malformed" };
    let sealed: Sealed;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      const text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString("utf8");
      sealed = JSON.parse(text) as Sealed;
    } catch {
      return { refused: "forged" };
    }
    if (!(typeof sealed.e === "number" && sealed.e * 1000 > now)) return { refused: "expired" };
    return { target: sealed.t, expires: sealed.e };
  }
}

/** The status and message of a refused link: nothing is asked of the upstream for it. */
export const LINK_REFUSAL: Record<LinkRefusal, { status: number; message: string }> = {
  malformed: { status: 404, message: "This is not a file link of this service." },
  forged: { status: 403, message: "This file link was not issued by this service, or was altered." },
  expired: { status: 410, message: "This file link has expired: read the field that gave it again for a new one." },
};
