import type { Random } from "../data/random.js";
import type { Router } from "../http/router.js";
import type { CompanyView } from "./company.js";
import { dateOfDay } from "./company.js";
import {
  existing,
  notFound,
  objectBody,
  ok,
  parseIdList,
  rejectUnknownParams,
  resourceRoute,
  singleParam,
  withApiKey,
} from "./http.js";
import { checkBodyId, checkFieldNames, checkId, checkString, isId, isObject, parseLocalDateTime, Problems } from "./validate.js";
import { v3List, v3ListParams } from "./query.js";

/**
 * Axis sections: the analytical items attached to time entries. Three axes form one hierarchy:
 * a cost centre contains projects, a project contains tasks. A section has at most one parent,
 * in the parent axis of its own axis; a section of the root axis has none.
 *
 * Names are kept per language tag (`{"en-US": "Design", "fr-FR": "Conception"}`) and written as
 * the legacy API's string `multilingualName` (docs/interface.md#legacy-axis-section): each text after its tag in brackets, entries
 * separated by `|` (`[en-US]Design|[fr-FR]Conception`; hence the characters a name must avoid). A
 * PUT takes either that string or the object. `name` is the invariant name: the `en-US` text, else
 * the first one.
 */

export interface Axis {
  id: number;
  name: string;
  parentAxisId: number | null;
}

export const AXES: readonly Axis[] = [
  { id: 1, name: "Cost centre", parentAxisId: null },
  { id: 2, name: "Project", parentAxisId: 1 },
  { id: 3, name: "Task", parentAxisId: 2 },
];

const AXIS_BY_ID = new Map(AXES.map((a) => [a.id, a]));

export interface AxisSection {
  id: number;
  code: string;
  multilingualName: Record<string, string>;
  axisId: number;
  description: string | null;
  ownerId: number | null;
  /** offset-free date-time */
  endOn: string | null;
  active: boolean;
  isPublic: boolean;
  parentId: number | null;
  /** offset-free date-time the section opened (read-only) */
  startOn: string;
}

/** Characters that break the legacy name serialisation (docs/interface.md#legacy-axis-section). */
const FORBIDDEN_IN_NAMES = /[[\]|/\\]/;
const LANGUAGE_TAG = /^[a-z]{2,3}(-[A-Z]{2})?$/;
/** `paging` of the list: 0,1000 by default and at most, as the other v3 lists (docs/interface.md#legacy-list-conventions) */
const MAX_PAGE = 1000;
const FIELDS = ["id", "code", "name", "multilingualName", "axisId", "description", "ownerId", "startOn", "endOn", "active", "isPublic", "parentAxisSections", "childrenAxisSections"];
const ORDER_FIELDS = ["id", "code", "name", "axisId", "ownerId", "startOn", "endOn", "active", "isPublic"];

type Texts = readonly [en: string, fr: string];

const COST_CENTRES: ReadonlyArray<{ code: string; name: Texts; projects: readonly Texts[] }> = [
  {
    code: "SAL",
    name: ["Sales", "Ventes"],
    projects: [["Key accounts", "Grands comptes"], ["Partner channel", "Réseau de partenaires"], ["Tender responses", "Réponses aux appels d'offres"], ["Customer onboarding", "Intégration des clients"]],
  },
  {
    code: "MKT",
    name: ["Marketing", "Marketing"],
    projects: [["Website redesign", "Refonte du site web"], ["Spring campaign", "Campagne de printemps"], ["Trade show", "Salon professionnel"], ["Brand guidelines", "Charte graphique"]],
  },
  {
    code: "ENG",
    name: ["Engineering", "Ingénierie"],
    projects: [["Mobile app", "Application mobile"], ["Billing platform", "Plateforme de facturation"], ["Data warehouse", "Entrepôt de données"], ["Legacy migration", "Migration de l'existant"]],
  },
  {
    code: "OPS",
    name: ["Operations", "Opérations"],
    projects: [["Warehouse automation", "Automatisation de l'entrepôt"], ["Fleet renewal", "Renouvellement de la flotte"], ["Quality certification", "Certification qualité"], ["Supplier audit", "Audit fournisseurs"]],
  },
  {
    code: "FIN",
    name: ["Finance", "Finance"],
    projects: [["Annual closing", "Clôture annuelle"], ["Budget planning", "Élaboration budgétaire"], ["ERP upgrade", "Mise à niveau de l'ERP"], ["Internal audit", "Audit interne"]],
  },
  {
    code: "HR",
    name: ["Human resources", "Ressources humaines"],
    projects: [["Recruitment drive", "Campagne de recrutement"], ["Training plan", "Plan de formation"], ["Payroll outsourcing", "Externalisation de la paie"], ["Engagement survey", "Enquête d'engagement"]],
  },
];

const TASKS: readonly Texts[] = [
  ["Analysis", "Analyse"],
  ["Design", "Conception"],
  ["Implementation", "Réalisation"],
  ["Testing", "Recette"],
  ["Meetings", "Réunions"],
  ["Documentation", "Documentation"],
  ["Support", "Support"],
  ["Travel", "Déplacement"],
];

/** The projects of the initial tree with their tasks: what generated time entries draw from. */
export interface StaffableProject {
  projectId: number;
  active: boolean;
  costCentreId: number;
  activeTaskIds: number[];
  inactiveTaskIds: number[];
}

export class AxisSectionStore {
  private readonly sections = new Map<number, AxisSection>();
  /** parent id -> child ids, rebuilt after a write */
  private children = new Map<number, number[]>();
  /** the initial tree, frozen, so that lazily generated time entries do not depend on later writes */
  readonly staffable: readonly StaffableProject[];

  constructor(view: CompanyView) {
    const rng = view.random(0x5ec7);
    const employees = view.company.employees;
    const ownerId = () => (employees.length > 0 ? Number(rng.pick(employees).id) : null);
    const pastEnd = () => `${dateOfDay(view.todayDay - rng.int(10, 200))}T00:00:00`;
    let nextId = 1;
    // sections opened a year or two before today (drawn from a generator of their own, so the others keep their values)
    const opened = view.random(0x5ec8);
    const add = (section: Omit<AxisSection, "id" | "startOn">): AxisSection => {
      const created = { id: nextId++, ...section, startOn: `${dateOfDay(view.todayDay - opened.int(400, 800))}T00:00:00` };
      this.sections.set(created.id, created);
      return created;
    };
    const names = (t: Texts) => ({ "en-US": t[0], "fr-FR": t[1] });

    // ids by axis: cost centres first, then projects, then tasks, as an administrator would have created them
    const centres = COST_CENTRES.map((cc) =>
      add({
        code: `CC-${cc.code}`,
        multilingualName: names(cc.name),
        axisId: 1,
        description: `Cost centre of ${cc.name[0]}`,
        ownerId: ownerId(),
        endOn: null,
        active: true,
        isPublic: true,
        parentId: null,
      }),
    );
    const projects = COST_CENTRES.flatMap((cc, c) =>
      cc.projects.map((p, i) => {
        // one project of the demo has closed: its sections stay, inactive
        const active = !(c === 1 && i === 1) && rng.chance(0.92);
        return add({
          code: `PRJ-${cc.code}-${String(i + 1).padStart(2, "0")}`,
          multilingualName: names(p),
          axisId: 2,
          description: rng.chance(0.7) ? `${p[0]} (${cc.name[0]})` : null,
          ownerId: ownerId(),
          endOn: active ? (rng.chance(0.25) ? `${dateOfDay(view.todayDay + rng.int(30, 300))}T00:00:00` : null) : pastEnd(),
          active,
          isPublic: rng.chance(0.9),
          parentId: centres[c]!.id,
        });
      }),
    );
    const staffable: StaffableProject[] = projects.map((p) => ({
      projectId: p.id,
      active: p.active,
      costCentreId: p.parentId!,
      activeTaskIds: [],
      inactiveTaskIds: [],
    }));
    projects.forEach((project, p) => {
      const picked = shuffled(TASKS, rng).slice(0, 4);
      picked.forEach((t, i) => {
        // the first task of every fifth project is closed, so that the demo always has some
        const active = !(p % 5 === 0 && i === 0) && rng.chance(0.93);
        const task = add({
          code: `${project.code}.T${i + 1}`,
          multilingualName: names(t),
          axisId: 3,
          description: null,
          ownerId: null,
          endOn: active ? null : pastEnd(),
          active,
          isPublic: true,
          parentId: project.id,
        });
        (active ? staffable[p]!.activeTaskIds : staffable[p]!.inactiveTaskIds).push(task.id);
      });
    });
    this.staffable = staffable;
    this.indexChildren();
  }

  get(id: number): AxisSection | undefined {
    return this.sections.get(id);
  }

  all(): AxisSection[] {
    return [...this.sections.values()].sort((a, b) => a.id - b.id);
  }

  childrenOf(id: number): AxisSection[] {
    return (this.children.get(id) ?? []).map((childId) => this.sections.get(childId)!);
  }

  /**
   * Rule 7 of time entries: the sections, taken in the order of their axes, must start at a
   * section without parent (a cost centre) and each must be a child of the one before, so at
   * most one per axis and no gap (cost centre > project > task, or a prefix of it). The order of
   * the ids in the request does not matter. Returns what is wrong, or null.
   */
  chainProblem(ids: readonly number[]): string | null {
    if (new Set(ids).size !== ids.length) return "an axis section appears twice";
    const chain = ids.map((id) => this.sections.get(id)!).sort((a, b) => depth(a.axisId) - depth(b.axisId));
    const root = chain[0]!;
    if (root.parentId !== null) return `section ${root.id} (${root.code}) needs its parent ${root.parentId} in the chain`;
    for (let i = 1; i < chain.length; i++) {
      if (chain[i]!.parentId !== chain[i - 1]!.id) {
        return `section ${chain[i]!.id} (${chain[i]!.code}) is not a child of section ${chain[i - 1]!.id} (${chain[i - 1]!.code})`;
      }
    }
    return null;
  }

  represent(section: AxisSection): Record<string, unknown> {
    const parent = section.parentId !== null ? this.sections.get(section.parentId) : undefined;
    return {
      ...flat(section),
      parentAxisSections: parent ? [flat(parent)] : [],
      childrenAxisSections: this.childrenOf(section.id).map(flat),
    };
  }

  /** Validates a whole replacement of a section; applies it only when everything is valid. */
  replace(id: number, body: Record<string, unknown>, view: CompanyView): AxisSection {
    if (!this.sections.has(id)) throw notFound(`Axis section ${id} does not exist.`);
    const problems = new Problems();
    checkFieldNames(problems, body, WRITABLE, READ_ONLY);
    checkBodyId(problems, body, id);

    for (const required of ["code", "multilingualName", "axisId"]) {
      if (body[required] === undefined) problems.add(`${required} is required.`);
    }
    const code = body.code === undefined ? undefined : checkString(problems, "code", body.code, { max: 50 });
    const multilingualName = body.multilingualName === undefined ? undefined : checkNames(problems, parseNames(body.multilingualName));
    let axis: Axis | undefined;
    if (body.axisId !== undefined) {
      const axisId = checkId(problems, "axisId", body.axisId);
      if (axisId !== undefined && axisId !== null) {
        axis = AXIS_BY_ID.get(axisId);
        if (!axis) problems.add(`axisId ${axisId} is not an axis (known: ${AXES.map((a) => `${a.id} ${a.name}`).join(", ")}).`);
      }
    }
    const description = body.description === undefined ? null : checkString(problems, "description", body.description, { max: 1000, nullable: true });
    let ownerId: number | null | undefined = null;
    if (body.ownerId !== undefined) {
      ownerId = checkId(problems, "ownerId", body.ownerId, true);
      if (typeof ownerId === "number" && !view.employee(ownerId)) problems.add(`ownerId ${ownerId} is not a user.`);
    }
    let endOn: string | null | undefined = null;
    if (body.endOn !== undefined && body.endOn !== null) {
      const parsed = parseLocalDateTime(body.endOn, true);
      if (parsed.ok) endOn = parsed.value.text;
      else {
        endOn = undefined;
        problems.add(parsed.reason === "offset" ? "endOn must carry no UTC offset." : "endOn must be a date-time YYYY-MM-DDTHH:mm:ss or null.");
      }
    }
    const active = checkBoolean(problems, "active", body.active);
    const isPublic = checkBoolean(problems, "isPublic", body.isPublic);
    const parentId = this.checkParent(problems, body.parentAxisSections, axis, id);

    if (axis) {
      const misplaced = this.childrenOf(id).filter((child) => AXIS_BY_ID.get(child.axisId)!.parentAxisId !== axis!.id);
      if (misplaced.length > 0) {
        problems.add(`The section has children in axis ${misplaced[0]!.axisId}, which must stay under a section of axis ${AXIS_BY_ID.get(misplaced[0]!.axisId)!.parentAxisId}.`);
      }
      if (typeof code === "string") {
        const clash = [...this.sections.values()].find((s) => s.id !== id && s.axisId === axis!.id && s.code === code);
        if (clash) problems.add(`code '${code}' is already used by section ${clash.id} of axis ${axis.id}.`);
      }
    }
    problems.throwIfAny();

    const next: AxisSection = {
      id,
      code: code as string,
      multilingualName: multilingualName!,
      axisId: axis!.id,
      description: description as string | null,
      ownerId: ownerId as number | null,
      endOn: endOn as string | null,
      active: active!,
      isPublic: isPublic!,
      parentId: parentId as number | null,
      startOn: this.sections.get(id)!.startOn,
    };
    this.sections.set(id, next);
    this.indexChildren();
    return next;
  }

  /** The parent from `parentAxisSections` (`[{id}]`, other members of the objects ignored). */
  private checkParent(problems: Problems, raw: unknown, axis: Axis | undefined, id: number): number | null | undefined {
    let parentIds: number[] = [];
    if (raw !== undefined && raw !== null) {
      if (!Array.isArray(raw) || raw.some((p) => !isObject(p) || !isId(p.id))) {
        problems.add("parentAxisSections must be an array of {id} with ids >= 1.");
        return undefined;
      }
      parentIds = raw.map((p) => (p as { id: number }).id);
    }
    if (!axis) return undefined;
    if (axis.parentAxisId === null) {
      if (parentIds.length > 0) problems.add(`Sections of axis ${axis.id} (${axis.name}) have no parent.`);
      return null;
    }
    if (parentIds.length !== 1) {
      problems.add(`A section of axis ${axis.id} (${axis.name}) needs exactly one parent section of axis ${axis.parentAxisId}.`);
      return undefined;
    }
    const parent = this.sections.get(parentIds[0]!);
    if (!parent) {
      problems.add(`Parent axis section ${parentIds[0]} does not exist.`);
      return undefined;
    }
    if (parent.id === id || parent.axisId !== axis.parentAxisId) {
      problems.add(`The parent of a section of axis ${axis.id} must be a section of axis ${axis.parentAxisId}; section ${parent.id} is in axis ${parent.axisId}.`);
      return undefined;
    }
    return parent.id;
  }

  private indexChildren(): void {
    const children = new Map<number, number[]>();
    for (const s of this.all()) {
      if (s.parentId === null) continue;
      const list = children.get(s.parentId);
      if (list) list.push(s.id);
      else children.set(s.parentId, [s.id]);
    }
    this.children = children;
  }
}

const WRITABLE = new Set(["id", "code", "multilingualName", "axisId", "description", "ownerId", "endOn", "active", "isPublic", "parentAxisSections"]);
const READ_ONLY = new Set(["name", "childrenAxisSections", "startOn"]);

function shuffled<T>(items: readonly T[], rng: Random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function depth(axisId: number): number {
  let d = 0;
  for (let axis = AXIS_BY_ID.get(axisId); axis && axis.parentAxisId !== null; axis = AXIS_BY_ID.get(axis.parentAxisId)) d++;
  return d;
}

export function invariantName(names: Record<string, string>): string {
  return names["en-US"] ?? Object.values(names)[0] ?? "";
}

function flat(s: AxisSection) {
  return {
    id: s.id,
    code: s.code,
    name: invariantName(s.multilingualName),
    multilingualName: formatNames(s.multilingualName),
    axisId: s.axisId,
    description: s.description,
    ownerId: s.ownerId,
    startOn: s.startOn,
    endOn: s.endOn,
    active: s.active,
    isPublic: s.isPublic,
  };
}

/** `{"en-US": "Design", "fr-FR": "Conception"}` as `[en-US]Design|[fr-FR]Conception`. */
export function formatNames(names: Record<string, string>): string {
  return Object.entries(names)
    .map(([tag, text]) => `[${tag}]${text}`)
    .join("|");
}

const NAME_ENTRY = /^\[([^\]]*)\]([^|]*)$/;

/** The string form read back into an object; an object is left as it is (checkNames judges both). */
export function parseNames(raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  const out: Record<string, string> = {};
  for (const entry of raw.split("|")) {
    const match = NAME_ENTRY.exec(entry);
    if (!match) return null;
    out[match[1]!] = match[2]!;
  }
  return out;
}

function checkNames(problems: Problems, raw: unknown): Record<string, string> | undefined {
  if (!isObject(raw) || Object.keys(raw).length === 0) {
    problems.add('multilingualName must be [tag]name entries separated by | (e.g. [en-US]Design|[fr-FR]Conception), or an object of language tag -> name, e.g. {"en-US": "Design"}.');
    return undefined;
  }
  const names: Record<string, string> = {};
  let valid = true;
  for (const [tag, text] of Object.entries(raw)) {
    if (!LANGUAGE_TAG.test(tag)) {
      problems.add(`multilingualName key '${tag}' is not a language tag such as en-US.`);
      valid = false;
    } else if (typeof text !== "string" || text.trim().length === 0 || text.length > 255) {
      problems.add(`multilingualName['${tag}'] must be a name of 1 to 255 characters.`);
      valid = false;
    } else if (FORBIDDEN_IN_NAMES.test(text)) {
      problems.add(`multilingualName['${tag}'] must not contain [, ], |, / or \\.`);
      valid = false;
    } else names[tag] = text;
  }
  return valid ? names : undefined;
}

/** An optional boolean defaulting to true (the defaults of `active` and `isPublic`: docs/interface.md#legacy-axis-section). */
function checkBoolean(problems: Problems, name: string, raw: unknown): boolean | undefined {
  if (raw === undefined) return true;
  if (typeof raw !== "boolean") {
    problems.add(`${name} must be true or false.`);
    return undefined;
  }
  return raw;
}

/**
 * `parentAxisSections.id=1,2`: sections with at least one of these parents;
 * `containsall,1,2`: sections whose parents include all of them.
 */
function parseParentFilter(raw: string | undefined): ((parentIds: number[]) => boolean) | null {
  if (raw === undefined) return null;
  const all = raw.toLowerCase().startsWith("containsall,");
  const ids = parseIdList(all ? raw.slice("containsall,".length) : raw, "parentAxisSections.id");
  return all ? (parentIds) => ids.every((id) => parentIds.includes(id)) : (parentIds) => ids.some((id) => parentIds.includes(id));
}

export function registerAxisSectionRoutes(router: Router, state: () => { view: CompanyView; sections: AxisSectionStore }): void {
  router.get(
    "/api/v3/axisSections",
    withApiKey((req) => {
      rejectUnknownParams(req.query, v3ListParams(req.query, ["id", "axisId", "parentAxisSections.id"]));
      const { sections } = state();
      const rawIds = singleParam(req.query, "id");
      const rawAxes = singleParam(req.query, "axisId");
      const ids = rawIds === undefined ? null : new Set(parseIdList(rawIds, "id"));
      const axes = rawAxes === undefined ? null : new Set(parseIdList(rawAxes, "axisId"));
      const parents = parseParentFilter(singleParam(req.query, "parentAxisSections.id"));
      const items = sections
        .all()
        .filter((s) => (ids === null || ids.has(s.id)) && (axes === null || axes.has(s.axisId)) && (parents === null || parents(s.parentId === null ? [] : [s.parentId])))
        .map((s) => sections.represent(s));
      return ok(v3List(req.query, items, { orderFields: ORDER_FIELDS, itemFields: FIELDS, what: "axis section", maxLimit: MAX_PAGE }));
    }),
  );
  router.get(
    "/api/v3/axisSections/{id}",
    resourceRoute([], (id) => {
      const { sections } = state();
      return ok({ data: sections.represent(existing(sections.get(id), "Axis section", id)) });
    }),
  );
  router.put(
    "/api/v3/axisSections/{id}",
    resourceRoute([], (id, req) => {
      const { sections, view } = state();
      const updated = sections.replace(id, objectBody(req), view);
      return ok({ data: sections.represent(updated) });
    }),
  );
}

