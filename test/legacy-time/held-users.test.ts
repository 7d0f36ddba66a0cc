import { describe, expect, it } from "vitest";
import { useGatewayStack } from "../helpers/gateway-stack.js";

/**
 * The legacy users held with the reference data (DIRECTORY_REFERENCE_FRESH_S, reference-cache.ts):
 * a legacy user is a view of current-API records that have events (the employee, its employment
 * and position, its legal entity, establishment and department), so a read answers again from
 * memory, a change the directory reports drops it (here a legal entity renamed in the directory's
 * own screens, read by the event poll), and a write through the facade reads back at once.
 */

const USER = `query($id: ID!) { employee(id: $id) { legacyUser { givenName legalEntity { id name } } } }`;
const UPDATE = `mutation($id: ID!, $input: LegacyUserInput!) { updateLegacyUser(id: $id, input: $input) { __typename ... on MutationError { message } } }`;

describe("legacy users held, dropped by the directory's events", () => {
  const stack = useGatewayStack({ env: { DIRECTORY_REFERENCE_FRESH_S: "600", DIRECTORY_EVENTS: "poll", DIRECTORY_EVENTS_POLL_MS: "200" } });
  const usersCalls = () => Object.entries(stack.stats().byRoute).filter(([route]) => route.includes("/api/v3/users")).reduce((n, [, count]) => n + count, 0);
  const user = async (id: string) => {
    const answer = await stack.query(USER, { id });
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    return answer.data.employee.legacyUser as { givenName: string; legalEntity: { id: string; name: string } };
  };

  it("answers again from memory, reads again once the directory reports a change it shows, and reads a write back at once", { timeout: 60_000 }, async () => {
    const id = stack.directory.company.employees[3]!.id;
    const first = await user(id);
    stack.resetStats();
    expect(await user(id)).toEqual(first);
    expect(usersCalls()).toBe(0);

    // renamed in the directory's own screens: its legal-entity.updated event drops the held users
    const renamed = `${first.legalEntity.name} (renamed)`;
    const patch = await fetch(`${stack.directory.url}/_admin/reference/legal-entities/${first.legalEntity.id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ legalName: renamed }),
    });
    expect(patch.status).toBe(200);
    // as long as the poll takes to hear it: the test's timeout is the only bound
    await expect.poll(async () => (await user(id)).legalEntity.name, { timeout: 50_000, interval: 100 }).toBe(renamed);

    // a write through the facade: read back at once, from the directory
    const givenName = `${first.givenName}-x`;
    const written = await stack.query(UPDATE, { id, input: { givenName } });
    expect(written.errors, JSON.stringify(written.errors)).toBeUndefined();
    stack.resetStats();
    expect((await user(id)).givenName).toBe(givenName);
    expect(usersCalls()).toBe(1);
  });
});
