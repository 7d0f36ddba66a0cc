import type { BusinessEstablishment, LegalEntity } from "../data/model.js";
import { splitWords } from "../data/text.js";
import type { Router } from "../http/router.js";
import type { CompanyView } from "./company.js";
import { badRequest, localDateTime, ok, parseBoundedInt, parseIdList, rejectUnknownParams, singleParam, withApiKey } from "./http.js";
import { alpha2Of } from "./countries.js";
import { CALENDARS } from "./reference.js";

/**
 * Legacy establishments (`/organization/structure/api/establishments`): one per business
 * establishment, same id. `legalUnitId` is the legal entity, `code` the remote id,
 * `legalIdentificationNumber` and `activityCode` the tax and industry codes, `calendarId` the
 * public-holiday calendar of its country, `usersCount` the employees active today whose
 * applicable job position is there, `author` the company's administrator.
 *
 * The list (docs/decisions.md#legacy-lists) is ordered by id. `page` is a 1-based page index or a cursor taken
 * from `prev`/`next`; a cursor holds the offset of its page, so it stays valid when `limit`
 * changes. `prev`, `next` and `count` are only written with `fields.root` (any of `prev`, `next`,
 * `count`; each asks for all three). Each item carries its `legalUnit`.
 */

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 100;
const PARAMS = ["id", "legalUnitId", "search", "isArchived", "page", "limit", "fields.root"];
const CURSOR_PREFIX = "offset:";

export function encodeCursor(offset: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${offset}`).toString("base64url");
}

function decodeCursor(raw: string): number {
  const text = Buffer.from(raw, "base64url").toString("utf8");
  const offset = text.startsWith(CURSOR_PREFIX) ? text.slice(CURSOR_PREFIX.length) : "";
  if (!/^\d{1,15}$/.test(offset)) throw badRequest(`'page' must be a page number >= 1 or a cursor from prev/next, got '${raw}'.`);
  return Number(offset);
}

/** Name search of docs/interface.md#name-search: every word of the query is a prefix of a word of the name. */
function matchesSearch(name: string, words: readonly string[]): boolean {
  const nameWords = splitWords(name);
  return words.every((w) => nameWords.some((n) => n.startsWith(w)));
}

function parseArchived(raw: string | undefined): ReadonlySet<boolean> {
  if (raw === undefined) return new Set([false]);
  const values = raw.split(",");
  if (values.length > 2 || values.some((v) => v !== "true" && v !== "false")) {
    throw badRequest(`'isArchived' must be true, false or true,false, got '${raw}'.`);
  }
  return new Set(values.map((v) => v === "true"));
}

/** Countries of the demo's legal units: ISO numeric id, name, default time zone; currencies: name and symbol. */
const COUNTRIES: Record<string, { id: number; name: string; timeZone: string }> = {
  FRA: { id: 250, name: "France", timeZone: "Europe/Paris" },
  GBR: { id: 826, name: "United Kingdom", timeZone: "Europe/London" },
  USA: { id: 840, name: "United States", timeZone: "America/New_York" },
  CHE: { id: 756, name: "Switzerland", timeZone: "Europe/Zurich" },
  DEU: { id: 276, name: "Germany", timeZone: "Europe/Berlin" },
  ESP: { id: 724, name: "Spain", timeZone: "Europe/Madrid" },
};
const CURRENCIES: Record<string, { englishName: string; symbol: string }> = {
  EUR: { englishName: "Euro", symbol: "€" },
  GBP: { englishName: "Pound sterling", symbol: "£" },
  USD: { englishName: "US dollar", symbol: "$" },
  CHF: { englishName: "Swiss franc", symbol: "CHF" },
};

/** The legal unit (legal entity) of an establishment as the legacy API embeds it (docs/interface.md#legacy-establishment). */
export function representLegalUnit(le: LegalEntity, view: CompanyView): Record<string, unknown> {
  const country = COUNTRIES[le.countryCode] ?? { id: 0, name: le.countryCode, timeZone: "UTC" };
  const currency = CURRENCIES[le.currencyCode] ?? { englishName: le.currencyCode, symbol: le.currencyCode };
  const headquarters = view.company.businessEstablishments.find((b) => b.legalEntityId === le.id && b.isHeadquarters);
  return {
    id: Number(le.id),
    name: le.legalName,
    countryId: alpha2Of(le.countryCode) ?? le.countryCode,
    code: le.remoteId,
    legalIdentificationNumber: le.taxIdentificationNumber.value,
    activityCode: le.industryCode.value,
    country: {
      id: country.id,
      name: country.name,
      code: alpha2Of(le.countryCode) ?? le.countryCode,
      currencyCode: le.currencyCode,
      currency: { code: le.currencyCode, ...currency },
      defaultTimeZone: country.timeZone,
    },
    headquartersId: headquarters ? Number(headquarters.id) : null,
    createdAt: localDateTime(le.createdAt),
    isArchived: le.isArchived,
  };
}

/** `fields.root`: any of prev, next, count; true when given. */
function wantsRootFields(query: URLSearchParams): boolean {
  const raw = singleParam(query, "fields.root");
  if (raw === undefined) return false;
  const values = raw.split(",").map((v) => v.trim());
  if (values.some((v) => !["prev", "next", "count"].includes(v))) throw badRequest(`'fields.root' takes prev, next and count, got '${raw}'.`);
  return true;
}

export function representEstablishment(b: BusinessEstablishment, view: CompanyView, origin: string): Record<string, unknown> {
  const admin = view.administrator;
  const legalEntity = view.legalEntities.get(b.legalEntityId);
  const country = b.address.countryCode || legalEntity?.countryCode;
  return {
    id: Number(b.id),
    name: b.name,
    legalUnitId: Number(b.legalEntityId),
    code: b.remoteId,
    legalUnit: legalEntity ? representLegalUnit(legalEntity, view) : null,
    legalIdentificationNumber: b.taxIdentificationNumber.value,
    activityCode: b.industryCode.value,
    calendarId: CALENDARS.find((c) => c.country === country)?.id ?? null,
    address: { street: b.address.addressLines.join(", "), zipCode: b.address.postalCode, city: b.address.locality },
    timezoneId: b.timezoneId,
    usersCount: view.activeCountAt(b.id),
    createdAt: localDateTime(b.createdAt),
    author: admin
      ? {
          id: Number(admin.id),
          firstName: admin.givenName,
          lastName: admin.familyName,
          fullname: `${admin.givenName} ${admin.familyName}`,
          url: `${origin}/api/v3/users/${admin.id}`,
        }
      : null,
    isArchived: b.isArchived,
  };
}

export function registerEstablishmentRoutes(router: Router, state: () => { view: CompanyView }): void {
  router.get(
    "/organization/structure/api/establishments",
    withApiKey((req) => {
      const q = req.query;
      rejectUnknownParams(q, PARAMS);
      const param = (name: string) => singleParam(q, name);
      const ids = param("id") === undefined ? null : new Set(parseIdList(param("id")!, "id"));
      const legalUnits = param("legalUnitId") === undefined ? null : new Set(parseIdList(param("legalUnitId")!, "legalUnitId"));
      const words = param("search") === undefined ? null : splitWords(param("search")!);
      const archived = parseArchived(param("isArchived"));
      const limit = param("limit") === undefined ? DEFAULT_LIMIT : parseBoundedInt(param("limit")!, "limit", 0, MAX_LIMIT);
      const rawPage = param("page");
      const offset =
        rawPage === undefined ? 0 : /^\d+$/.test(rawPage) ? (parseBoundedInt(rawPage, "page", 1, 1_000_000_000) - 1) * limit : decodeCursor(rawPage);
      const withCount = wantsRootFields(q);

      const { view } = state();
      const matching = view.company.businessEstablishments.filter(
        (b) =>
          (ids === null || ids.has(Number(b.id))) &&
          (legalUnits === null || legalUnits.has(Number(b.legalEntityId))) &&
          (words === null || matchesSearch(b.name, words)) &&
          archived.has(b.isArchived),
      );
      const items = matching.slice(offset, offset + limit).map((b) => representEstablishment(b, view, req.origin));
      if (!withCount) return ok({ items });
      // with limit 0 a page never advances: no cursors
      const prev = offset > 0 && limit > 0 ? encodeCursor(Math.max(0, offset - limit)) : null;
      const next = limit > 0 && offset + limit < matching.length ? encodeCursor(offset + limit) : null;
      return ok({ items, prev, next, count: matching.length });
    }),
  );
}
