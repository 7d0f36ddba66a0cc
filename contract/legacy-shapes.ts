import { Type, type TSchema } from "@sinclair/typebox";

/**
 * The response shapes of the legacy API (docs/interface.md#legacy-api), declared once. The legacy
 * conformance test validates the in-process service's answers against them, the service reads
 * its list of readable user fields from `User`, and the legacy-time subgraph's payload types are
 * derived from them (subgraphs/legacy-time/rest.ts).
 * Objects are closed where docs/interface.md lists every field (time entries, their owner,
 * departments, axis sections), so that an invented field fails too.
 */

const closed = { additionalProperties: false } as const;
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A date-time without offset. */
export const LocalDateTime = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$" });
export const LocalDate = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$" });
const Id = Type.Integer({ minimum: 1 });

export const Ref = Type.Object({ id: Id, name: Type.String(), url: Type.String() });

/** An entry of a reference list the legacy API serves whole (the work contracts' hiring types...: docs/decisions.md#legacy-api). */
export const NamedItem = Type.Object({ id: Id, name: Type.String() }, closed);

export const User = Type.Object({
  id: Id,
  name: Type.String(),
  displayName: Type.String(),
  url: Type.String(),
  modifiedAt: LocalDateTime,
  firstName: Type.String(),
  lastName: Type.String(),
  login: Type.String(),
  mail: Type.String(),
  dtContractStart: Nullable(LocalDateTime),
  dtContractEnd: Nullable(LocalDateTime),
  birthDate: Nullable(LocalDateTime),
  employeeNumber: Type.String(),
  calendarId: Nullable(Id),
  calendar: Nullable(Ref),
  cultureID: Type.Integer({ minimum: 1025 }),
  culture: Ref,
  // docs/interface.md#legacy-user: its address is `href` or `url`
  picture: Type.Object({ id: Type.Union([Type.String(), Type.Integer()]), name: Type.String(), href: Type.Optional(Type.String()), url: Type.Optional(Type.String()) }),
  legalEntityId: Nullable(Id),
  legalEntity: Nullable(Ref),
  departmentId: Nullable(Id),
  department: Nullable(Ref),
  managerId: Nullable(Id),
  manager: Nullable(Ref),
  manager2Id: Nullable(Id),
  manager2: Nullable(Ref),
  rolePrincipalId: Id,
  rolePrincipal: Ref,
  habilitedRoles: Type.Array(Ref),
  userWorkCycles: Type.Array(
    Type.Object({ id: Id, ownerID: Id, workCycleID: Id, startsOn: LocalDateTime, endsOn: Nullable(LocalDateTime) }, closed),
  ),
  extendedData: Type.Record(Type.String({ pattern: "^e_" }), Type.Object({ value: Type.Unknown() }, closed)),
  applicationData: Type.Object({ profile_leave: Nullable(Ref) }),
  userAxisValues_2: Nullable(Type.Object({ id: Id, name: Type.String(), url: Type.String(), axisId: Id })),
  allowsElectronicPayslip: Type.Boolean(),
  bankName: Nullable(Type.String()),
  rib: Nullable(Type.String()),
  iban: Nullable(Type.String()),
  bic: Nullable(Type.String()),
  frenchCarTaxHorsePower: Nullable(Type.Integer()),
  frenchMotocyclesTaxHorsePower: Nullable(Type.Integer()),
  cspId: Nullable(Type.Integer()),
  address: Nullable(Type.String()),
  directLine: Nullable(Type.String()),
  jobTitle: Nullable(Type.String()),
  personalEmail: Nullable(Type.String()),
  personalMobile: Nullable(Type.String()),
  professionalMobile: Nullable(Type.String()),
  quote: Nullable(Type.String()),
  gender: Type.Union([Type.Literal("Undefined"), Type.Literal("Male"), Type.Literal("Female"), Type.Literal("Misc")]),
  nationalityId: Nullable(Type.String({ pattern: "^[A-Z]{2}$" })),
  /** requestable, "legacy, not to be used", of no stated type: always null (docs/decisions.md#legacy-details) */
  unitSellPrice: Type.Null(),
});

/** Every readable user field, for `fields=`. */
export const USER_FIELDS = Object.keys(User.properties);

export const Department = Type.Object(
  {
    id: Id,
    name: Type.String(),
    code: Nullable(Type.String()),
    hierarchy: Type.String({ pattern: "^/" }),
    parentId: Type.String({ pattern: "^/" }),
    // the general position in the tree, in the documented range (docs/interface.md#legacy-department)
    position: Type.Integer({ minimum: 1e19, maximum: 1e20 }),
    sortOrder: Type.Integer({ minimum: 1 }),
    level: Type.Integer({ minimum: 1, maximum: 9 }),
    isActive: Type.Boolean(),
    headID: Nullable(Id),
    head: Nullable(Ref),
    users: Type.Array(Ref),
    currentUsers: Type.Array(Ref),
    currentUsersCount: Type.Integer({ minimum: 0 }),
    url: Type.String(),
  },
  closed,
);

export const WorkContract = Type.Object({
  id: Id,
  ownerId: Id,
  externalId: Nullable(Type.String()),
  typeId: Type.Integer(),
  startsOn: LocalDate,
  endsOn: Nullable(LocalDate),
  isApplicable: Type.Boolean(),
  establishmentId: Nullable(Type.Integer()),
  spcId: Nullable(Type.Integer()),
  hiringTypeId: Nullable(Type.Integer()),
  terminationReasonId: Nullable(Type.Integer()),
  trialPeriodDays: Nullable(Type.Integer({ minimum: 0 })),
  renewedTrialPeriodDays: Nullable(Type.Integer({ minimum: 0 })),
  trialPeriodEndDate: Nullable(LocalDate),
  trialPeriodEndDate2: Nullable(LocalDate),
  temporaryContractGroundId: Nullable(Type.Integer()),
  internshipSupervisorId: Nullable(Type.Integer()),
  authorId: Type.Integer(),
  lastModifierId: Type.Integer(),
  createdAt: LocalDateTime,
  lastModifiedAt: LocalDateTime,
});

const LegalUnit = Type.Object({
  id: Id,
  name: Type.String(),
  countryId: Type.String(),
  code: Type.String(),
  legalIdentificationNumber: Type.String(),
  activityCode: Type.String(),
  country: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    code: Type.String(),
    currencyCode: Type.String(),
    currency: Type.Object({ code: Type.String(), englishName: Type.String(), symbol: Type.String() }),
    defaultTimeZone: Type.String(),
  }),
  headquartersId: Nullable(Id),
  createdAt: LocalDateTime,
  isArchived: Type.Boolean(),
});

export const Establishment = Type.Object(
  {
    id: Id,
    name: Type.String(),
    legalUnitId: Id,
    code: Type.String(),
    legalUnit: LegalUnit,
    legalIdentificationNumber: Type.String(),
    activityCode: Type.String(),
    calendarId: Nullable(Type.Integer()),
    address: Type.Object({ street: Type.String(), zipCode: Type.String(), city: Type.String() }),
    timezoneId: Type.String(),
    usersCount: Type.Integer({ minimum: 0 }),
    createdAt: LocalDateTime,
    author: Nullable(Type.Object({ id: Id, firstName: Type.String(), lastName: Type.String(), fullname: Type.String(), url: Type.String() })),
    isArchived: Type.Boolean(),
  },
  closed,
);

export const TimeEntryOwner = Type.Object(
  { id: Id, firstName: Type.String(), lastName: Type.String(), mail: Type.String(), legalEntityId: Nullable(Id) },
  closed,
);

export const TimeEntry = Type.Object(
  {
    id: Id,
    ownerId: Id,
    owner: TimeEntryOwner,
    unit: Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)]),
    startsAt: LocalDateTime,
    duration: Type.String({ pattern: "^(1\\.00:00:00|\\d{2}:\\d{2}:\\d{2})$" }),
    endsAt: LocalDateTime,
    authorId: Id,
    createdAt: LocalDateTime,
    modifierId: Id,
    modifiedAt: LocalDateTime,
    archivedAt: Nullable(LocalDateTime),
    creationSource: Type.Integer({ minimum: 0, maximum: 4 }),
    layer: Type.Integer({ minimum: 0 }),
    axisSections: Nullable(Type.Array(Type.Object({ id: Id }, closed))),
    comment: Nullable(Type.Object({ id: Id, content: Type.String() }, closed)),
    timeTypeId: Nullable(Id),
    timesheetId: Id,
  },
  closed,
);

export const Timesheet = Type.Object({
  id: Id,
  name: Type.String(),
  ownerId: Id,
  owner: TimeEntryOwner,
  startsOn: LocalDate,
  endsOn: LocalDate,
  status: Type.Integer({ minimum: 0, maximum: 3 }),
});

const axisSectionFields = {
  id: Id,
  code: Type.String(),
  name: Type.String(),
  /** the string form, `[en-US]Design|[fr-FR]Conception` (docs/interface.md#legacy-axis-section) */
  multilingualName: Type.String({ pattern: "^\\[[^\\]]+\\][^|]*(\\|\\[[^\\]]+\\][^|]*)*$" }),
  axisId: Id,
  description: Nullable(Type.String()),
  ownerId: Nullable(Id),
  startOn: Nullable(LocalDateTime),
  endOn: Nullable(LocalDateTime),
  active: Type.Boolean(),
  isPublic: Type.Boolean(),
};
export const AxisSectionFlat = Type.Object(axisSectionFields, closed);
export const AxisSection = Type.Object(
  { ...axisSectionFields, parentAxisSections: Type.Array(AxisSectionFlat), childrenAxisSections: Type.Array(AxisSectionFlat) },
  closed,
);

export const Error = Type.Object({ status: Type.Integer(), message: Type.String() });

export const list = <T extends TSchema>(item: T) => Type.Object({ data: Type.Object({ items: Type.Array(item) }) });
export const countedList = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Object({ items: Type.Array(item), count: Type.Integer({ minimum: 0 }) }, closed) });
/** The bare `{items}` envelope of the work-contract and establishment lists. */
export const items = <T extends TSchema>(item: T) => Type.Object({ items: Type.Array(item) });
export const single = <T extends TSchema>(item: T) => Type.Object({ data: item }, closed);
