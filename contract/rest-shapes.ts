import { Type, type TObject, type TProperties, type TSchema } from "@sinclair/typebox";

/**
 * The response shapes of the directory's current API (`/service-api`), declared once: every
 * resource representation, the collection envelope and problem details.
 *
 * Their users: the conformance test validates every answer of the in-process service against them
 * (strictly: no member beyond those declared, enums closed), the facade's upstream client
 * checks the answers of any upstream against them for the members the facade relies on (see
 * expectations.ts: only a missing required member is reported there, so that an upstream adding
 * members or enum values does not break the facade), the directory's OpenAPI document serves
 * them, and the subgraphs' payload types are `Static<>` of them (`subgraphs/<name>/rest.ts`),
 * which is why the helpers below keep their members' and literals' types.
 *
 * The members follow the interface the facade is written against and, where it is silent, the
 * production service's own document for API version 2024-11-01.
 */

const strict = { additionalProperties: false } as const;

const Id = Type.String({ minLength: 1 });
const Url = Type.String({ minLength: 1 });
const DatePattern = "^\\d{4}-\\d{2}-\\d{2}$";
const IsoDate = Type.String({ pattern: DatePattern });
const Timestamp = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$" });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Enum = <V extends string>(...values: readonly V[]) => Type.Union(values.map((v) => Type.Literal(v)));

/** `{id, type, url}` of a resource of the given type */
export const Ref = <N extends string>(type: N) => Type.Object({ id: Id, type: Type.Literal(type), url: Url }, strict);
/** a reference whose `type` is not fixed (an event's type is its kind) */
const AnyRef = Type.Object({ id: Id, type: Type.String({ minLength: 1 }), url: Url }, strict);
const Link = Nullable(Type.Object({ href: Url }, strict));
const Links = <N extends string>(...names: N[]) => Type.Object(Object.fromEntries(names.map((n) => [n, Link])) as { [K in N]: typeof Link }, strict);
/** field -> language tag -> text */
export const T9n = Type.Record(Type.String(), Type.Record(Type.String(), Nullable(Type.String())));
const Formatted = <V extends string>(...formats: readonly V[]) => Type.Object({ format: Enum(...formats), value: Type.String() }, strict);
const Embedded = Type.Record(Type.String(), Type.Record(Type.String(), Type.Object({})));

const STATUS = Enum("active", "upcoming", "deactivated");
const LEGAL_ENTITY_TAX_FORMATS = ["other", "franceSIREN", "spainNIF", "germanySN"] as const;
const ESTABLISHMENT_TAX_FORMATS = ["other", "franceSIRET", "spainNIF"] as const;
const INDUSTRY_FORMATS = ["other", "franceAPE", "spainCNAE", "germanyWZ", "usaNAICS"] as const;
export const AUDIENCES = ["employee", "student", "external", "elected", "appointee", "associate", "volunteer", "other"] as const;
const UPDATED_ATTRIBUTES = ["remoteId", "jobTitle", "jobQualification", "occupationCategory", "workingTimeArrangement", "department"] as const;

/** A resource representation: `id`, `type`, `url`, its members, and `links` / `embedded` when asked. */
function resource<N extends string, M extends TProperties, L extends TObject = TObject<{}>>(type: N, members: M, links?: L) {
  return Type.Object(
    {
      id: Id,
      type: Type.Literal(type),
      url: Url,
      ...members,
      links: Type.Optional((links ?? Links()) as L),
      embedded: Type.Optional(Embedded),
    },
    strict,
  );
}

const stamps = { createdAt: Timestamp, lastUpdatedAt: Timestamp };

export const employee = resource(
  "employee",
  {
    remoteId: Nullable(Type.String()),
    portrait: Nullable(Ref("portrait")),
    givenName: Type.String(),
    familyName: Type.String(),
    employeeNumber: Nullable(Type.String()),
    status: STATUS,
    email: Nullable(Type.String()),
    phoneNumber: Nullable(Type.String()),
    birthDay: Nullable(Type.Object({ day: Type.Integer({ minimum: 1, maximum: 31 }), month: Type.Integer({ minimum: 1, maximum: 12 }) }, strict)),
    applicableEmployment: Nullable(Ref("employment")),
    applicableJobPosition: Nullable(Ref("job-position")),
    ...stamps,
  },
  Links("portrait", "employments", "jobPositions", "personalRecord"),
);

export const employment = resource(
  "employment",
  {
    remoteId: Nullable(Type.String({ minLength: 1, maxLength: 200 })),
    employee: Ref("employee"),
    legalEntity: Nullable(Ref("legal-entity")),
    status: STATUS,
    start: Type.Object({ date: IsoDate }, strict),
    end: Nullable(Type.Object({ date: IsoDate }, strict)),
    document: Nullable(Ref("file")),
    template: Nullable(Ref("employment-template")),
    ...stamps,
  },
  Links("jobPositions", "probationaryPeriods"),
);

export const jobPosition = resource("job-position", {
  remoteId: Nullable(Type.String({ minLength: 1, maxLength: 1024 })),
  employment: Ref("employment"),
  employee: Ref("employee"),
  status: STATUS,
  startsOn: IsoDate,
  endsOn: Nullable(IsoDate),
  businessEstablishment: Nullable(Ref("business-establishment")),
  jobTitle: Type.String({ minLength: 1, maxLength: 1024 }),
  jobQualification: Nullable(Ref("job-qualification")),
  manager: Nullable(Ref("employee")),
  occupationCategory: Nullable(Ref("occupation-category")),
  workingTimeArrangement: Nullable(Ref("working-time-arrangement")),
  department: Nullable(Ref("department")),
  document: Nullable(Ref("document")),
  notes: Nullable(Type.String({ maxLength: 500 })),
  t9n: T9n,
  updatedAttributes: Type.Array(Enum(...UPDATED_ATTRIBUTES)),
  ...stamps,
});

const applicability = Nullable(Type.Object({ start: Nullable(IsoDate), end: Nullable(IsoDate) }, strict));

export const employeeAttribute = resource("employee-attribute", {
  definition: Ref("employee-attribute-definition"),
  employee: Ref("employee"),
  // docs/interface.md: the whole employment or job position the attribute comes from, when it does
  employment: Type.Optional(employment),
  jobPosition: Type.Optional(jobPosition),
  applicability,
  value: Type.Unknown(),
  ...stamps,
});

export const employeeAttributeDefinition = resource("employee-attribute-definition", {
  name: Type.String(),
  multipleValueHandling: Nullable(Type.String()),
  taxonomy: Nullable(Ref("taxonomy")),
  schema: Type.Object({}),
  propertyDescriptions: Type.Record(Type.String(), Type.String()),
  t9n: T9n,
  ...stamps,
  isArchived: Type.Boolean(),
  lastArchivedAt: Nullable(Timestamp),
});

export const employeePersonalRecord = resource("employee-personal-record", {
  employee: Ref("employee"),
  title: Enum("unknown", "mister", "miss"),
  legalGender: Enum("unknown", "male", "female", "diverse"),
  birthDate: Nullable(IsoDate),
  insuranceNumber: Nullable(Type.Object({ format: Enum("frenchSSN", "swissSSN", "other"), value: Type.String() }, strict)),
  nationalitiesCountryCodes: Type.Array(Type.String({ pattern: "^[A-Z]{3}$" }), { maxItems: 1 }),
  bankAccount: Nullable(
    Type.Object(
      {
        format: Enum("other", "iban"),
        bankName: Nullable(Type.String()),
        accountIdentifier: Nullable(Type.String()),
        bankIdentifier: Nullable(Type.String()),
      },
      strict,
    ),
  ),
  phoneNumber: Nullable(Type.String()),
  email: Nullable(Type.String({ minLength: 3, maxLength: 255 })),
  ...stamps,
});

export const probationaryPeriod = resource("probationary-period", {
  employment: Ref("employment"),
  startsOn: IsoDate,
  endsOn: IsoDate,
  initialEndsOn: IsoDate,
  extendedEndsOn: Nullable(IsoDate),
  ...stamps,
});

export const employmentTemplate = resource(
  "employment-template",
  {
    title: Type.String({ minLength: 1 }),
    legalEntities: Type.Array(Ref("legal-entity")),
    term: Enum("permanent", "fixed"),
    audience: Enum(...AUDIENCES),
    t9n: T9n,
    ...stamps,
  },
  Links("extensionDefinitions"),
);

export const occupationCategory = resource("occupation-category", {
  title: Type.String({ minLength: 1, maxLength: 255 }),
  businessEstablishments: Nullable(Type.Array(Ref("business-establishment"), { minItems: 1 })),
  t9n: T9n,
});

export const jobQualification = resource("job-qualification", {
  title: Type.String({ minLength: 1 }),
  profession: Nullable(Ref("profession")),
  rank: Type.Integer({ minimum: 0 }),
  t9n: T9n,
  ...stamps,
});

export const profession = resource("profession", {
  title: Type.String({ minLength: 1, maxLength: 255 }),
  isArchived: Type.Boolean(),
  t9n: T9n,
});

export const legalEntity = resource(
  "legal-entity",
  {
    legalName: Type.String({ minLength: 1, maxLength: 255 }),
    remoteId: Nullable(Type.String({ minLength: 1, maxLength: 50 })),
    isArchived: Type.Boolean(),
    countryCode: Type.String({ pattern: "^[A-Z]{3}$" }),
    currencyCode: Type.String({ pattern: "^[A-Z]{3}$" }),
    taxIdentificationNumber: Nullable(Formatted(...LEGAL_ENTITY_TAX_FORMATS)),
    industryCode: Nullable(Formatted(...INDUSTRY_FORMATS)),
    ...stamps,
    lastArchivedAt: Nullable(Timestamp),
  },
  Links("businessEstablishments"),
);

export const businessEstablishment = resource("business-establishment", {
  name: Type.String({ minLength: 1 }),
  remoteId: Nullable(Type.String()),
  legalEntity: Ref("legal-entity"),
  isHeadquarters: Type.Boolean(),
  taxIdentificationNumber: Nullable(Formatted(...ESTABLISHMENT_TAX_FORMATS)),
  industryCode: Nullable(Formatted(...INDUSTRY_FORMATS)),
  address: Type.Object(
    {
      addressLines: Type.Array(Type.String()),
      postalCode: Nullable(Type.String()),
      locality: Nullable(Type.String()),
      administrativeArea: Nullable(Type.String()),
      countryCode: Type.String({ pattern: "^[A-Z]{3}$" }),
    },
    strict,
  ),
  timezoneId: Type.String({ minLength: 1 }),
  isArchived: Type.Boolean(),
  lastArchivedAt: Nullable(Timestamp),
  ...stamps,
});

export const department = resource(
  "department",
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    description: Nullable(Type.String()),
    remoteId: Nullable(Type.String({ maxLength: 255 })),
    isArchived: Type.Boolean(),
    parent: Nullable(Ref("department")),
    level: Type.Integer({ minimum: 1 }),
    manager: Nullable(Ref("employee")),
    sortOrder: Type.Integer({ minimum: 0 }),
    // docs/interface.md's embedded department shape has it
    owningApplication: Type.String(),
  },
  Links("activeEmployees"),
);

export const taxonomy = resource("taxonomy", {
  name: Type.String({ minLength: 1 }),
  sortLabelsBy: Enum("id", "name"),
  ...stamps,
  t9n: T9n,
});

export const taxonomyLabel = resource("taxonomy-label", {
  taxonomy: Ref("taxonomy"),
  name: Type.String({ minLength: 1 }),
  remoteId: Nullable(Type.String({ minLength: 1 })),
  // docs/interface.md documents it
  applicabilitySchema: Type.Object({}),
  isArchived: Type.Boolean(),
  lastArchivedAt: Nullable(Timestamp),
  ...stamps,
  t9n: T9n,
});

export const portrait = resource("portrait", {
  employee: Ref("employee"),
  fileName: Type.String({ minLength: 1 }),
  contentType: Type.String({ pattern: "^image/" }),
  createdAt: Timestamp,
});

export const webhookEndpoint = resource("webhook-endpoint", {
  name: Type.String({ minLength: 1 }),
  apiVersion: Type.String({ pattern: DatePattern }),
  webhookUrl: Url,
  topics: Type.Array(Type.String({ minLength: 1 })),
  status: Enum("active", "suspended", "inactive"),
  ...stamps,
});

export const event = resource(
  "event",
  {
    apiVersion: Type.String({ pattern: DatePattern }),
    // `employee.updated`, `department.deleted`…, and the bare `ping` of a test delivery
    topic: Type.String({ pattern: "^[a-z-]+(\\.[a-z-]+)?$" }),
    occurredAt: Timestamp,
    source: Url,
    businessEstablishment: Nullable(Ref("business-establishment")),
    data: Type.Object({ id: Id, type: Type.String(), url: Url }),
    previousAttributes: Nullable(Type.Object({})),
  },
  Links("retry"),
);

export const webhookDelivery = resource(
  "webhook-delivery",
  {
    nextAttemptAt: Nullable(Timestamp),
    attemptsCount: Type.Integer({ minimum: 0 }),
    status: Enum("delivered", "undelivered", "failed"),
    event: AnyRef,
    webhookEndpoint: Ref("webhook-endpoint"),
  },
  Links("attempts"),
);

export const webhookDeliveryAttempt = resource("webhook-delivery-attempt", {
  signature: Type.String(),
  webhookDelivery: Ref("webhook-delivery"),
  isSuccessful: Type.Boolean(),
  responseStatusCode: Nullable(Type.Integer({ minimum: 100, maximum: 599 })),
  errorResponseBody: Type.String(),
  createdAt: Timestamp,
});

/** Item `type` -> the schema of its representation. */
export const RESOURCE_SHAPES: Readonly<Record<string, TObject>> = {
  employee,
  employment,
  "job-position": jobPosition,
  "employee-attribute": employeeAttribute,
  "employee-attribute-definition": employeeAttributeDefinition,
  "employee-personal-record": employeePersonalRecord,
  "probationary-period": probationaryPeriod,
  "employment-template": employmentTemplate,
  "occupation-category": occupationCategory,
  "job-qualification": jobQualification,
  profession,
  "legal-entity": legalEntity,
  "business-establishment": businessEstablishment,
  department,
  taxonomy,
  "taxonomy-label": taxonomyLabel,
  portrait,
  "webhook-endpoint": webhookEndpoint,
  event,
  "webhook-delivery": webhookDelivery,
  "webhook-delivery-attempt": webhookDeliveryAttempt,
};

/** Collection (path segment) -> item `type`, for every collection the current API serves. */
export const COLLECTIONS: Readonly<Record<string, string>> = {
  employees: "employee",
  employments: "employment",
  "job-positions": "job-position",
  "employee-attributes": "employee-attribute",
  "employee-personal-records": "employee-personal-record",
  "probationary-periods": "probationary-period",
  "employment-templates": "employment-template",
  "occupation-categories": "occupation-category",
  "job-qualifications": "job-qualification",
  professions: "profession",
  "legal-entities": "legal-entity",
  "business-establishments": "business-establishment",
  departments: "department",
  taxonomies: "taxonomy",
  "taxonomy-labels": "taxonomy-label",
  portraits: "portrait",
  "webhook-endpoints": "webhook-endpoint",
  events: "event",
  "webhook-deliveries": "webhook-delivery",
  "webhook-delivery-attempts": "webhook-delivery-attempt",
};

/** The envelope of every list, with items of the given shape. */
export function collectionShape(collection: string, item: TSchema): TObject {
  return Type.Object(
    {
      type: Type.Literal(collection),
      url: Url,
      totalCount: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
      items: Type.Array(item, { maxItems: 100 }),
      links: Type.Optional(Type.Object({ prev: Link, next: Link }, strict)),
      embedded: Type.Optional(Embedded),
    },
    strict,
  );
}

/** Problem details (RFC 9457): every error of the current API. */
export const PROBLEM = Type.Object({
  type: Type.Optional(Nullable(Type.String())),
  title: Nullable(Type.String()),
  status: Type.Integer({ minimum: 400, maximum: 599 }),
  detail: Type.Optional(Nullable(Type.String())),
  errors: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
});

/** The token endpoint's answers: a token, or an OAuth error (RFC 6749 §5). */
export const TOKEN = Type.Object(
  {
    access_token: Type.String({ minLength: 1 }),
    token_type: Type.Literal("Bearer"),
    expires_in: Type.Integer({ minimum: 1 }),
    scope: Type.Optional(Type.String()),
  },
  strict,
);
export const OAUTH_ERROR = Type.Object({ error: Type.String({ minLength: 1 }), error_description: Type.Optional(Type.String()) }, strict);
