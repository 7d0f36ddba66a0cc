import { beforeAll, describe, expect, it } from "vitest";
import { useStack } from "../helpers/stack.js";
import { entitiesQuery, legacyGet, range, representations } from "./helpers.js";

/** WorkContract, read alone or, for a router's `_entities`, together through the employments of the same ids. */

const stack = useStack({ subgraphs: ["legacy-time"] });
let url: string;
let contracts: any[];
/** the contract does not write whether it is archived: the list filtered by isArchived says it */
let archived: Set<number>;

beforeAll(async () => {
  url = stack.subgraphs["legacy-time"]!.url;
  contracts = (await legacyGet(stack, `/directory/api/4.0/work-contracts?ownerId=${range(1, 100).join(",")}&limit=1000`)).items;
  archived = new Set((await legacyGet(stack, `/directory/api/4.0/work-contracts?ownerId=${range(1, 100).join(",")}&limit=1000&isArchived=true`)).items.map((c: any) => c.id));
});

const CONTRACT = `id externalId typeId startsOn endsOn isApplicable isArchived hiringTypeId terminationReasonId
  trialPeriodDays renewedTrialPeriodDays trialPeriodEndsOn renewedTrialPeriodEndsOn temporaryContractGroundId createdAt lastModifiedAt
  socioProfessionalCategoryId owner { id } employment { id } establishment { id } internshipSupervisor { id } author { id } lastModifier { id }`;

function expected(c: any) {
  const ref = (id: number | null) => (id === null ? null : { id: String(id) });
  return {
    id: String(c.id),
    externalId: c.externalId,
    typeId: c.typeId,
    startsOn: c.startsOn,
    endsOn: c.endsOn,
    isApplicable: c.isApplicable,
    isArchived: archived.has(c.id),
    hiringTypeId: c.hiringTypeId,
    terminationReasonId: c.terminationReasonId,
    trialPeriodDays: c.trialPeriodDays,
    renewedTrialPeriodDays: c.renewedTrialPeriodDays,
    trialPeriodEndsOn: c.trialPeriodEndDate,
    renewedTrialPeriodEndsOn: c.trialPeriodEndDate2,
    temporaryContractGroundId: c.temporaryContractGroundId,
    createdAt: c.createdAt,
    lastModifiedAt: c.lastModifiedAt,
    socioProfessionalCategoryId: c.spcId,
    owner: ref(c.ownerId),
    employment: ref(c.id),
    establishment: ref(c.establishmentId),
    internshipSupervisor: ref(c.internshipSupervisorId),
    author: ref(c.authorId),
    lastModifier: ref(c.lastModifierId),
  };
}

describe("WorkContract", () => {
  it("reads every field of the legacy work contract, with references for the people and places it names", async () => {
    // one with a renewed trial period, so that the trial fields are not all null
    const contract = contracts.find((c) => c.trialPeriodEndDate2 !== null) ?? contracts[0];
    const res = await stack.gql(url, `query($id: ID!) { workContract(id: $id) { ${CONTRACT} } }`, { id: String(contract.id) });
    expect(res.errors).toBeUndefined();
    expect(res.data.workContract).toEqual(expected(contract));
  });

  it("workContract(id) is null, without error, for a contract that does not exist", async () => {
    const res = await stack.gql(url, `{ a: workContract(id: "999999") { id } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({ a: null });
    const bad = await stack.gql(url, `{ b: workContract(id: "x") { id } }`);
    expect(bad.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });

  it("resolves one reference by a single read, the list having no id filter", async () => {
    stack.resetStats();
    const res = await stack.gql(url, entitiesQuery("WorkContract", "id startsOn"), { r: representations("WorkContract", [contracts[0].id]) });
    expect(res.errors).toBeUndefined();
    expect(res.data._entities).toEqual([{ id: String(contracts[0].id), startsOn: contracts[0].startsOn }]);
    expect(stack.stats().byRoute).toEqual({ "GET /directory/api/4.0/work-contracts/{id}": 1 });
  });

  it("resolves many references through their employments in two calls however many, an id no employment carries by its single read", async () => {
    const some = contracts.slice(0, 40);
    stack.resetStats();
    const res = await stack.gql(url, entitiesQuery("WorkContract", "id startsOn owner { id }"), {
      r: representations("WorkContract", [...some.map((c) => c.id), 999999]),
    });
    expect(res.errors).toBeUndefined();
    expect(res.data._entities).toEqual([...some.map((c) => ({ id: String(c.id), startsOn: c.startsOn, owner: { id: String(c.ownerId) } })), null]);
    const { "POST /connect/token": _token, ...calls } = stack.stats().byRoute;
    expect(calls).toEqual({
      "GET /service-api/employments": 1,
      "GET /directory/api/4.0/work-contracts": 1,
      "GET /directory/api/4.0/work-contracts/{id}": 1,
    });
  });
});


