import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";
import type { Employee, Id } from "../../data/model.js";
import { compareStrings } from "../../data/records.js";
import { HttpError, type DirectoryResponse, type Router } from "../../http/router.js";
import { problemBody } from "../../http/errors.js";
import { perContext } from "../cache.js";
import { employeeVisible } from "../derived.js";
import type { ContextSource } from "../engine.js";
import { ref } from "../refs.js";
import type { CurrentContext, ResourceDef, View } from "../resource.js";
import { self, withLinks } from "./common.js";

/**
 * Portraits: the picture of each employee. `GET /portraits/{id}` answers its JSON representation,
 * or the image itself when the client accepts `image/*` and not JSON; the employee's
 * `links.portrait` is a file address (`/files/{id}?token=`) that serves the image to anyone holding
 * the token, as an `<img src>` needs. The image is a small PNG in a colour drawn from the id.
 */

export interface Portrait {
  id: Id;
  employee: Employee;
}

const portraitsOf = perContext((ctx) => {
  const list: Portrait[] = ctx.company.employees.map((employee) => ({ id: employee.portraitId, employee }));
  list.sort((a, b) => compareNumeric(a.id, b.id));
  return { list, byId: new Map(list.map((p) => [p.id, p])) };
});

function compareNumeric(a: string, b: string): number {
  return a.length - b.length || compareStrings(a, b);
}

export function serializePortrait(r: Portrait, view: View): Record<string, unknown> {
  return withLinks(
    view,
    {
      ...self(view, "portrait", "portraits", r.id),
      employee: ref(view, "employee", "employees", r.employee.id),
      fileName: `portrait-${r.id}.png`,
      contentType: "image/png",
      createdAt: r.employee.createdAt,
    },
    () => ({}),
  );
}

export const portraits: ResourceDef<Portrait> = {
  collection: "portraits",
  type: "portrait",
  // a portrait is a part of the employee's record
  scope: "employees",
  records: (ctx) => portraitsOf(ctx).list,
  byId: (id, ctx) => portraitsOf(ctx).byId.get(id),
  visible: (r, caller, ctx) => employeeVisible(r.employee.id, caller, ctx),
  serialize: serializePortrait,
  download: (r) => image(r.id),
};

/** The token of a portrait's file address. */
export function portraitToken(ctx: CurrentContext, portraitId: string): string {
  return createHmac("sha256", ctx.service.signingKey).update(`portrait:${portraitId}`).digest("base64url").slice(0, 32);
}

/** `GET /service-api/files/{id}?token=`: the portrait image, for the holder of its token. */
export function registerPortraitFiles(router: Router, current: ContextSource): void {
  router.get("/service-api/files/{id}", (req) => {
    const ctx = current();
    const id = req.params.id!;
    const token = req.query.get("token") ?? "";
    const expected = Buffer.from(portraitToken(ctx, id));
    const given = Buffer.from(token);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      // the same answer for an unknown file and a bad token: a token reveals nothing it did not sign
      throw new HttpError(404, problemBody(404, "Not Found", "no file at this address, or the token is not valid for it"));
    }
    const portrait = portraitsOf(ctx).byId.get(id);
    if (!portrait) throw new HttpError(404, problemBody(404, "Not Found", "no file at this address, or the token is not valid for it"));
    return image(portrait.id);
  });
}

function image(id: Id): DirectoryResponse {
  return {
    status: 200,
    headers: { "content-type": "image/png", "content-disposition": `inline; filename="portrait-${id}.png"` },
    body: png(id),
  };
}

const SIZE = 16;

/** A SIZE x SIZE PNG in one colour drawn from the id. */
function png(id: Id): Buffer {
  const [r, g, b] = createHash("sha256").update(`portrait:${id}`).digest();
  const row = Buffer.alloc(1 + SIZE * 3);
  for (let x = 0; x < SIZE; x++) row.set([r!, g!, b!], 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: SIZE }, () => row));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
