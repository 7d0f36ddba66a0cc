import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { Id } from "../data/model.js";
import { HttpError, Router, type DirectoryRequest, type DirectoryResponse, type Handler } from "../http/router.js";
import { problemBody } from "../http/errors.js";
import { API_VERSION, authenticate, hasScope } from "./auth.js";
import { compareIds } from "./derived.js";
import { fold } from "./filters.js";
import {
  BadParameter,
  type CurrentContext,
  type FilterDef,
  type IncludeOption,
  type ResourceDef,
  type SortKey,
  type View,
} from "./resource.js";
import type { Caller } from "./tokens.js";

/**
 * The generic engine of the current API: one list handler and one single-read handler serve every
 * `ResourceDef`.
 *
 * A list request is answered in this order: authentication, `Api-Version` and scope (auth.ts);
 * then the query (unknown or repeated parameters, `include`, `limit`, `sort`, filters, `page`),
 * every problem of it reported at once as a 400 with `errors[param]`; then the page; then the
 * preconditions (`If-Match` 412, `If-None-Match` 304) on the finished body.
 *
 * Pagination is keyset-based: a cursor holds the sort values and id of the item it follows (or
 * precedes), so pages stay stable while paging. Each sort order of a resource is materialised
 * once per context (lazily) and a cursor is located by binary search. A filter with an index
 * (`FilterDef.candidates`) that is selective turns the page into a walk over its candidates only;
 * otherwise the sorted order is scanned from the cursor until the page is full. A page index
 * (`page=3`, from 1) is the page after `(index - 1) * limit` matching items; its links are cursors.
 */

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;
const INCLUDE_OPTIONS: readonly IncludeOption[] = ["embedded", "links", "totalCount"];
/** the parameters of every list; `sort` only on a list that declares its sorts (`ResourceDef.sorts`), as production offers it on some lists only */
const COMMON_LIST_PARAMS = ["include", "limit", "page"];
/** a page index (from 1); a cursor is base64url text with a dot, never all digits */
const PAGE_INDEX = /^[1-9]\d{0,5}$/;

/** The query parameters a list accepts besides its filters: the common ones, and `sort` where it declares sorts. */
export function listParams(def: ResourceDef<any>): string[] {
  return def.sorts === undefined ? COMMON_LIST_PARAMS : [...COMMON_LIST_PARAMS, "sort"];
}

/** Where the handlers find the context of the current company generation. */
export type ContextSource = () => CurrentContext;

export function registerResource<R extends { id: Id }>(router: Router, def: ResourceDef<R>, current: ContextSource): void {
  const ctx = current();
  if (ctx.service.resources.has(def.type)) throw new Error(`resource type ${def.type} registered twice`);
  ctx.service.resources.set(def.type, def);
  if (def.list ?? true) router.get(`/service-api/${def.collection}`, (req) => listResource(req, def, current()));
  if (def.single ?? true) router.get(`/service-api/${def.collection}/{id}`, (req) => readResource(req, def, current()));
}

/**
 * A router whose every handler answers with a weak ETag and honours `If-Match` and
 * `If-None-Match` (RFC 9110 §13), and whose every answer, errors included, carries the
 * `Api-Version` header the production service sends: every route of the current API is
 * registered through it.
 */
export class ConditionalRouter extends Router {
  constructor(private readonly target: Router) {
    super();
  }
  override add(method: string, pattern: string, handler: Handler): this {
    this.target.add(method, pattern, async (req) => {
      try {
        const response = conditional(req, await handler(req));
        return { ...response, headers: { ...response.headers, "api-version": API_VERSION } };
      } catch (err) {
        if (err instanceof HttpError) throw new HttpError(err.status, err.body, { ...err.headers, "api-version": API_VERSION });
        throw err;
      }
    });
    return this;
  }
}

/**
 * Adds the ETag of a 200 and evaluates the preconditions against it. Preconditions are ignored on
 * any other status, as RFC 9110 §13.2.1 says. Tags compare weakly, also for `If-Match`: every tag
 * of this API is weak, and a strong comparison would make `If-Match` always fail.
 */
export function conditional(req: DirectoryRequest, response: DirectoryResponse): DirectoryResponse {
  if (response.status !== 200 || response.body === undefined) return response;
  // the text the tag is made of is the one sent: the body is serialised once
  const text = JSON.stringify(response.body);
  const etag = `W/"${createHash("sha1").update(text).digest("base64url")}"`;
  const headers = { ...response.headers, etag };
  const ifMatch = headerValue(req, "if-match");
  if (ifMatch !== undefined && !tagListMatches(ifMatch, etag)) {
    throw new HttpError(412, problemBody(412, "Precondition Failed", "If-Match does not match the current version"), { etag });
  }
  const ifNoneMatch = headerValue(req, "if-none-match");
  if (ifNoneMatch !== undefined && tagListMatches(ifNoneMatch, etag)) {
    if (req.method === "GET" || req.method === "HEAD") return { status: 304, headers: { etag } };
    throw new HttpError(412, problemBody(412, "Precondition Failed", "If-None-Match matches the current version"), { etag });
  }
  return { ...response, headers, text };
}

function headerValue(req: DirectoryRequest, name: string): string | undefined {
  const raw = req.headers[name];
  return Array.isArray(raw) ? raw.join(", ") : raw;
}

function tagListMatches(list: string, etag: string): boolean {
  const ours = opaque(etag);
  return list.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || (tag.length > 0 && opaque(tag) === ours);
  });
}

function opaque(tag: string): string {
  const t = tag.startsWith("W/") ? tag.slice(2) : tag;
  return t.startsWith('"') && t.endsWith('"') && t.length >= 2 ? t.slice(1, -1) : t;
}

/** A 400 whose `errors` name every bad parameter. */
export function badRequest(errors: Record<string, string[]>, detail = "invalid query parameters"): HttpError {
  return new HttpError(400, problemBody(400, "Bad Request", detail, errors));
}

export function notFound(type: string, id: string): HttpError {
  return new HttpError(404, problemBody(404, "Not Found", `no ${type} with id "${id}"`));
}

/** Collects parameter problems so that one 400 reports all of them. */
class ParamErrors {
  readonly errors: Record<string, string[]> = {};
  add(param: string, message: string): void {
    (this.errors[param] ??= []).push(message);
  }
  /** runs `parse`, turning a BadParameter into an error of its parameter */
  try<T>(param: string, parse: () => T): T | undefined {
    try {
      return parse();
    } catch (err) {
      if (err instanceof BadParameter) {
        this.add(err.param || param, err.message);
        return undefined;
      }
      throw err;
    }
  }
  throwIfAny(): void {
    if (Object.keys(this.errors).length > 0) throw badRequest(this.errors);
  }
}

/**
 * Unknown or repeated parameters are 400s: a misspelt filter must not silently widen a list.
 * `include` alone may be repeated (`?include=links&include=totalCount`, the exploded form of the
 * production service's document) as well as comma-separated.
 */
function checkParams(query: URLSearchParams, allowed: ReadonlySet<string>, errors: ParamErrors): void {
  const seen = new Set<string>();
  for (const name of query.keys()) {
    if (!allowed.has(name)) errors.add(name, `unknown parameter; allowed: ${[...allowed].join(", ")}`);
    else if (seen.has(name) && name !== "include") errors.add(name, "given more than once; list values are comma-separated");
    seen.add(name);
  }
}

/** Every `include` value of the query, repeated keys and comma-separated lists alike; null: none. */
export function includeParam(query: URLSearchParams): string | null {
  const values = query.getAll("include");
  return values.length === 0 ? null : values.join(",");
}

export function parseInclude(raw: string | null, param = "include"): Set<IncludeOption> {
  const include = new Set<IncludeOption>();
  if (raw === null) return include;
  for (const entry of raw.split(",").map((e) => e.trim())) {
    if (!(INCLUDE_OPTIONS as readonly string[]).includes(entry)) {
      throw new BadParameter(param, `unknown value "${entry}"; allowed: ${INCLUDE_OPTIONS.join(", ")}`);
    }
    include.add(entry as IncludeOption);
  }
  return include;
}

export function parseLimit(raw: string | null, param = "limit"): number {
  if (raw === null) return DEFAULT_LIMIT;
  if (!/^\d{1,3}$/.test(raw) || Number(raw) > MAX_LIMIT) throw new BadParameter(param, `must be an integer from 0 to ${MAX_LIMIT}`);
  return Number(raw);
}

export function makeView(req: DirectoryRequest, caller: Caller, ctx: CurrentContext, include: ReadonlySet<IncludeOption>): View {
  return { origin: req.origin, include, caller, ctx };
}

// ---------------------------------------------------------------------------------------------
// Single reads

function readResource<R extends { id: Id }>(req: DirectoryRequest, def: ResourceDef<R>, ctx: CurrentContext): DirectoryResponse {
  const caller = authenticate(req, ctx, def.scope, "read");
  const errors = new ParamErrors();
  checkParams(req.query, new Set(["include"]), errors);
  const include = errors.try("include", () => parseInclude(includeParam(req.query))) ?? new Set<IncludeOption>();
  errors.throwIfAny();

  const id = req.params.id!;
  const record = def.byId(id, ctx);
  if (!record || (def.visible && !def.visible(record, caller, ctx))) throw notFound(def.type, id);
  if (def.download && wantsFile(req)) return def.download(record);
  const view = makeView(req, caller, ctx, include);
  const body = def.serialize(record, view);
  if (include.has("embedded")) body.embedded = embeddedFor(def, [record], view);
  return { status: 200, body };
}

/** Content negotiation of a resource with a file: an image is asked for, JSON is not. */
function wantsFile(req: DirectoryRequest): boolean {
  const accept = String(req.headers.accept ?? "").toLowerCase();
  return /\bimage\//.test(accept) && !accept.includes("application/json");
}

// ---------------------------------------------------------------------------------------------
// Lists

interface SortPart<R> {
  name: string;
  desc: boolean;
  /** null: the id */
  key: SortKey<R> | null;
}

interface SortSpec<R> {
  /** canonical text, e.g. `familyName,-id`: identifies the order a cursor belongs to */
  text: string;
  parts: SortPart<R>[];
}

type Norm = string | number | null;

/** One sort order of one resource, materialised. */
interface Sorted<R> {
  order: R[];
  /** normalised sort values, parallel to `order` (one entry per part; unused for id parts) */
  keys: Norm[][];
  /** record -> index in `order`; built on first use (only the candidates walk needs it) */
  pos(): Map<R, number>;
}

interface Cursor {
  direction: "next" | "prev";
  keys: Norm[];
  id: Id;
}

interface ActiveFilter<R> {
  name: string;
  def: FilterDef<R>;
  value: unknown;
}

function listResource<R extends { id: Id }>(req: DirectoryRequest, def: ResourceDef<R>, ctx: CurrentContext): DirectoryResponse {
  const caller = authenticate(req, ctx, def.scope, "read");
  const errors = new ParamErrors();
  // named filters, and those of the parameters that only a pattern declares (`value.<prop>`)
  const filterDefs: Record<string, FilterDef<R>> = { ...def.filters };
  if (def.dynamicFilter) {
    for (const name of req.query.keys()) {
      if (listParams(def).includes(name) || Object.prototype.hasOwnProperty.call(filterDefs, name)) continue;
      const dynamic = def.dynamicFilter(name);
      if (dynamic) filterDefs[name] = dynamic;
    }
  }
  checkParams(req.query, new Set([...listParams(def), ...Object.keys(filterDefs)]), errors);

  const include = errors.try("include", () => parseInclude(includeParam(req.query))) ?? new Set<IncludeOption>();
  const limit = errors.try("limit", () => parseLimit(req.query.get("limit"))) ?? DEFAULT_LIMIT;
  // a list without sorts is in id order (an unknown `sort` there was reported above)
  const sort = errors.try("sort", () => parseSort(def, def.sorts === undefined ? null : req.query.get("sort")));
  const filters: ActiveFilter<R>[] = [];
  for (const [name, filter] of Object.entries(filterDefs)) {
    const raw = req.query.get(name);
    if (raw === null) continue;
    const parsed = errors.try(name, () => ({ value: filter.parse(raw, name) }));
    if (parsed) filters.push({ name, def: filter, value: parsed.value });
  }
  const rawPage = req.query.get("page");
  // `page` is the cursor of `links.next`/`links.prev`, or a page index from 1 (production accepts both)
  const index = rawPage !== null && PAGE_INDEX.test(rawPage) ? Number(rawPage) : null;
  const cursor = sort && rawPage !== null && index === null ? errors.try("page", () => decodeCursor(rawPage, sort, ctx)) : undefined;
  errors.throwIfAny();

  const view = makeView(req, caller, ctx, include);
  const page = selectPage(def, ctx, caller, filters, sort!, cursor ?? null, limit, include.has("totalCount"), index === null ? 0 : (index - 1) * limit);
  ctx.service.work.recordsExamined += page.examined;
  const pageHref = (c: Cursor) => {
    const query = new URLSearchParams(req.query);
    query.set("page", encodeCursor(c, sort!, ctx));
    return { href: `${req.origin}${req.path}?${query.toString()}` };
  };

  const body: Record<string, unknown> = {
    type: def.collection,
    url: `${req.origin}${req.raw.url ?? req.path}`,
  };
  if (include.has("totalCount")) body.totalCount = page.total;
  body.items = page.items.map((r) => def.serialize(r, view));
  // as production: the envelope's links (and so the next page's address) only when asked
  if (include.has("links")) {
    body.links = {
      prev: page.prev ? pageHref(page.prev) : null,
      next: page.next ? pageHref(page.next) : null,
    };
  }
  if (include.has("embedded")) body.embedded = embeddedFor(def, page.items, view);
  return def.alternateList?.(req, body, page.items, view) ?? { status: 200, body };
}

function parseSort<R extends { id: Id }>(def: ResourceDef<R>, raw: string | null): SortSpec<R> {
  const sorts = def.sorts ?? {};
  const allowed = ["id", ...Object.keys(sorts).filter((k) => k !== "id")];
  const parts: SortPart<R>[] = [];
  for (const entry of (raw ?? "id").split(",").map((e) => e.trim())) {
    const desc = entry.startsWith("-");
    const name = desc ? entry.slice(1) : entry;
    if (!allowed.includes(name)) {
      throw new BadParameter("sort", `unknown sort "${entry}"; allowed: ${allowed.flatMap((a) => [a, `-${a}`]).join(", ")}`);
    }
    if (parts.some((p) => p.name === name)) throw new BadParameter("sort", `"${name}" is sorted on twice`);
    parts.push({ name, desc, key: name === "id" ? null : sorts[name]! });
  }
  // ties break on the id, so that the order (and so every cursor) is total
  if (!parts.some((p) => p.key === null)) parts.push({ name: "id", desc: false, key: null });
  return { text: parts.map((p) => (p.desc ? `-${p.name}` : p.name)).join(","), parts };
}

/**
 * Strings sort case- and accent-insensitively, the exact text breaking ties: the key is the folded
 * text, a NUL, and the text itself, so one string comparison does both and the order is total.
 */
function normalize(value: unknown): Norm {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return value;
  const s = String(value);
  // dates, timestamps and most ids (printable ASCII without capitals) fold to themselves: skip NFD
  return `${FOLDS_TO_ITSELF.test(s) ? s : fold(s)}\u0000${s}`;
}

const FOLDS_TO_ITSELF = /^[\x20-\x40\x5b-\x7e]*$/;

/** null sorts after every value (last ascending, first descending), numbers before strings */
function compareNorm(a: Norm, b: Norm): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a !== typeof b) return typeof a === "number" ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareKeys<R>(spec: SortSpec<R>, aKeys: readonly Norm[], aId: Id, bKeys: readonly Norm[], bId: Id): number {
  for (let i = 0; i < spec.parts.length; i++) {
    const part = spec.parts[i]!;
    const c = part.key === null ? compareIds(aId, bId) : compareNorm(aKeys[i]!, bKeys[i]!);
    if (c !== 0) return part.desc ? -c : c;
  }
  return 0;
}

/** the ids compareIds orders numerically (it gives up beyond 15 digits, and so must we) */
const DECIMAL_ID = /^(0|[1-9]\d{0,14})$/;

/** orders kept per resource: a client combining sorts freely must not fill the memory */
const MAX_SORTED_ORDERS = 8;

const sortedCache = new WeakMap<CurrentContext, Map<ResourceDef<any>, Map<string, Sorted<any>>>>();

function sortedOrder<R extends { id: Id }>(def: ResourceDef<R>, ctx: CurrentContext, spec: SortSpec<R>): Sorted<R> {
  let byDef = sortedCache.get(ctx);
  if (!byDef) sortedCache.set(ctx, (byDef = new Map()));
  let bySpec = byDef.get(def);
  if (!bySpec) byDef.set(def, (bySpec = new Map()));
  let sorted = bySpec.get(spec.text) as Sorted<R> | undefined;
  if (sorted) {
    // most recently used last: the first entry is the one to evict
    bySpec.delete(spec.text);
    bySpec.set(spec.text, sorted);
  } else {
    if (bySpec.size >= MAX_SORTED_ORDERS) bySpec.delete(bySpec.keys().next().value!);
    ctx.service.work.cachesBuilt++;
    const records = def.records(ctx);
    // decimal ids compare as numbers: the same order as compareIds, without parsing per comparison
    const entries = records.map((r) => ({ r, k: normalizedKeys(spec, r, ctx), n: DECIMAL_ID.test(r.id) ? Number(r.id) : NaN }));
    const parts = spec.parts;
    entries.sort((a, b) => {
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i]!;
        let c: number;
        if (part.key !== null) c = compareNorm(a.k[i]!, b.k[i]!);
        else c = a.n === a.n && b.n === b.n ? a.n - b.n : compareIds(a.r.id, b.r.id);
        if (c !== 0) return part.desc ? -c : c;
      }
      return 0;
    });
    const order = entries.map((e) => e.r);
    let pos: Map<R, number> | undefined;
    sorted = { order, keys: entries.map((e) => e.k), pos: () => (pos ??= new Map(order.map((r, i) => [r, i]))) };
    bySpec.set(spec.text, sorted);
  }
  return sorted;
}

/** The number of items of `sorted` that sort before the probe (`inclusive`: or equal to it). */
function locate<R extends { id: Id }>(sorted: Sorted<R>, spec: SortSpec<R>, keys: readonly Norm[], id: Id, inclusive: boolean): number {
  let lo = 0;
  let hi = sorted.order.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareKeys(spec, sorted.keys[mid]!, sorted.order[mid]!.id, keys, id);
    if (c < 0 || (inclusive && c === 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface Page<R> {
  items: R[];
  total: number | null;
  prev: Cursor | null;
  next: Cursor | null;
  /** records tested against the visibility rule and the filters: the cost of the page */
  examined: number;
}

/**
 * The walk over matching positions of the sorted order: either a selective index's candidates,
 * filtered and sorted by position, or the whole order tested item by item.
 */
interface Walk {
  /** up to `n` matching positions from `from` going forward (inclusive) */
  forward(from: number, n: number): number[];
  /** up to `n` matching positions from `from` going backward (inclusive), nearest first */
  backward(from: number, n: number): number[];
  count(): number;
}

function selectPage<R extends { id: Id }>(
  def: ResourceDef<R>,
  ctx: CurrentContext,
  caller: Caller,
  filters: ActiveFilter<R>[],
  spec: SortSpec<R>,
  cursor: Cursor | null,
  limit: number,
  withTotal: boolean,
  /** a page index's: the matching items before its page */
  skip = 0,
): Page<R> {
  const all = def.records(ctx);
  const sorted = sortedOrder(def, ctx, spec);
  const visible = def.visible;
  let examined = 0;
  const test = (r: R): boolean => {
    examined++;
    return (visible === undefined || visible(r, caller, ctx)) && filters.every((f) => f.def.matches(r, f.value, ctx));
  };

  let candidates: readonly R[] | null = null;
  for (const f of filters) {
    if (!f.def.candidates) continue;
    const c = f.def.candidates(f.value, ctx, all);
    if (candidates === null || c.length < candidates.length) candidates = c;
  }
  const walk: Walk =
    candidates !== null && candidates.length * 2 <= all.length
      ? candidateWalk(candidates, sorted, spec, ctx, test)
      : scanWalk(sorted, test, () => (filters.length === 0 && visible === undefined ? all.length : null));

  let items: R[] = [];
  let prev: Cursor | null = null;
  let next: Cursor | null = null;
  if (limit > 0) {
    let positions: number[];
    let hasPrev: boolean;
    let hasNext: boolean;
    if (cursor === null || cursor.direction === "next") {
      let start = cursor === null ? 0 : locate(sorted, spec, cursor.keys, cursor.id, true);
      if (skip > 0) {
        const before = walk.forward(0, skip);
        start = before.length === skip ? before[skip - 1]! + 1 : sorted.order.length;
      }
      positions = walk.forward(start, limit + 1);
      hasNext = positions.length > limit;
      positions = positions.slice(0, limit);
      hasPrev = start > 0 && walk.backward(start - 1, 1).length > 0;
    } else {
      const end = locate(sorted, spec, cursor.keys, cursor.id, false);
      positions = end > 0 ? walk.backward(end - 1, limit + 1) : [];
      hasPrev = positions.length > limit;
      positions = positions.slice(0, limit).reverse();
      hasNext = walk.forward(end, 1).length > 0;
    }
    items = positions.map((p) => sorted.order[p]!);
    if (positions.length > 0) {
      const first = positions[0]!;
      const last = positions[positions.length - 1]!;
      if (hasPrev) prev = { direction: "prev", keys: rawKeys(spec, sorted.order[first]!, ctx), id: sorted.order[first]!.id };
      if (hasNext) next = { direction: "next", keys: rawKeys(spec, sorted.order[last]!, ctx), id: sorted.order[last]!.id };
    }
  }
  const total = withTotal ? walk.count() : null;
  return { items, total, prev, next, examined };
}

const FEW_CANDIDATES = 4096;

function candidateWalk<R extends { id: Id }>(
  candidates: readonly R[],
  sorted: Sorted<R>,
  spec: SortSpec<R>,
  ctx: CurrentContext,
  test: (r: R) => boolean,
): Walk {
  const matching = candidates.filter(test);
  let matched: number[];
  if (matching.length <= FEW_CANDIDATES) {
    // a binary search each is cheaper than building the record -> position map of a large order
    matched = [];
    for (const r of matching) {
      const p = locate(sorted, spec, normalizedKeys(spec, r, ctx), r.id, false);
      if (sorted.order[p] === r) matched.push(p);
    }
  } else {
    const pos = sorted.pos();
    matched = [];
    for (const r of matching) {
      const p = pos.get(r);
      if (p !== undefined) matched.push(p);
    }
  }
  const positions = Int32Array.from(matched).sort();
  // an index may list a record twice (several matching values): keep each position once
  let n = 0;
  for (let i = 0; i < positions.length; i++) if (i === 0 || positions[i] !== positions[i - 1]) positions[n++] = positions[i]!;
  const unique = positions.subarray(0, n);
  const firstAtOrAfter = (p: number) => {
    let lo = 0;
    let hi = unique.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (unique[mid]! < p) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return {
    forward(from, count) {
      const i = firstAtOrAfter(from);
      return Array.from(unique.subarray(i, i + count));
    },
    backward(from, count) {
      const end = firstAtOrAfter(from + 1);
      return Array.from(unique.subarray(Math.max(0, end - count), end)).reverse();
    },
    count: () => unique.length,
  };
}

function scanWalk<R extends { id: Id }>(sorted: Sorted<R>, test: (r: R) => boolean, knownCount: () => number | null): Walk {
  const order = sorted.order;
  return {
    forward(from, count) {
      const found: number[] = [];
      for (let i = from; i < order.length && found.length < count; i++) if (test(order[i]!)) found.push(i);
      return found;
    },
    backward(from, count) {
      const found: number[] = [];
      for (let i = from; i >= 0 && found.length < count; i--) if (test(order[i]!)) found.push(i);
      return found;
    },
    count() {
      const known = knownCount();
      if (known !== null) return known;
      let n = 0;
      for (const r of order) if (test(r)) n++;
      return n;
    },
  };
}

function normalizedKeys<R>(spec: SortSpec<R>, r: R, ctx: CurrentContext): Norm[] {
  return spec.parts.map((p) => (p.key === null ? null : normalize(p.key(r, ctx))));
}

function rawKeys<R>(spec: SortSpec<R>, r: R, ctx: CurrentContext): Norm[] {
  return spec.parts.map((p) => {
    if (p.key === null) return null;
    const v = p.key(r, ctx);
    return v === undefined ? null : v;
  });
}

// ---------------------------------------------------------------------------------------------
// Cursors: base64url JSON of {s: sort, d: direction, k: sort values, i: id}, then "." and a MAC

function encodeCursor<R>(cursor: Cursor, spec: SortSpec<R>, ctx: CurrentContext): string {
  const payload = Buffer.from(
    JSON.stringify({ s: spec.text, d: cursor.direction === "next" ? "n" : "p", k: cursor.keys, i: cursor.id }),
  ).toString("base64url");
  return `${payload}.${mac(payload, ctx)}`;
}

function decodeCursor<R>(raw: string, spec: SortSpec<R>, ctx: CurrentContext): Cursor {
  const bad = (why: string) => new BadParameter("page", `bad cursor: ${why}; use the href of links.next or links.prev`);
  const dot = raw.indexOf(".");
  if (dot < 1) throw bad("not a cursor of this API");
  const payload = raw.slice(0, dot);
  const given = Buffer.from(raw.slice(dot + 1), "base64url");
  const expected = Buffer.from(mac(payload, ctx), "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw bad("it was altered or comes from another service");
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    throw bad("unreadable");
  }
  const c = data as { s?: unknown; d?: unknown; k?: unknown; i?: unknown };
  if (
    typeof c !== "object" || c === null ||
    typeof c.s !== "string" || (c.d !== "n" && c.d !== "p") || typeof c.i !== "string" ||
    !Array.isArray(c.k) || c.k.length !== spec.parts.length ||
    !c.k.every((v) => v === null || typeof v === "string" || typeof v === "number")
  ) {
    throw bad("unreadable");
  }
  if (c.s !== spec.text) throw bad(`it belongs to the sort "${c.s}", not "${spec.text}"`);
  return {
    direction: c.d === "n" ? "next" : "prev",
    keys: spec.parts.map((p, i) => (p.key === null ? null : normalize((c.k as Norm[])[i]))),
    id: c.i,
  };
}

function mac(payload: string, ctx: CurrentContext): string {
  return createHmac("sha256", ctx.service.signingKey).update(payload).digest("base64url").slice(0, 22);
}

// ---------------------------------------------------------------------------------------------
// Embedding

/**
 * `embedded` of a list or a single read: type -> id -> representation. A representation is left
 * out when the caller could not read it directly: it lacks the scope of the embedded type, or the
 * record is invisible to it.
 */
function embeddedFor<R extends { id: Id }>(def: ResourceDef<R>, records: readonly R[], view: View): Record<string, Record<string, unknown>> {
  const embedded: Record<string, Record<string, unknown>> = {};
  for (const [type, embed] of Object.entries(def.embeddables ?? {})) {
    const target = view.ctx.service.resources.get(type);
    if (target && !hasScope(view.caller, target.scope, "read")) continue;
    for (const record of records) {
      for (const entry of embed(record, view)) {
        if (entry === null) continue;
        if (target?.visible) {
          const targetRecord = target.byId(entry.id, view.ctx);
          if (!targetRecord || !target.visible(targetRecord, view.caller, view.ctx)) continue;
        }
        (embedded[type] ??= {})[entry.id] = entry.representation;
      }
    }
  }
  return embedded;
}

/** The representation of a registered resource by type and id, for embeddables; null when unknown. */
export function embedById(view: View, type: string, id: Id | null | undefined): { id: Id; representation: unknown } | null {
  if (id === null || id === undefined) return null;
  const def = view.ctx.service.resources.get(type);
  const record = def?.byId(id, view.ctx);
  if (!def || !record) return null;
  return { id, representation: def.serialize(record, view) };
}
