import type { FieldNode, GraphQLResolveInfo } from "graphql";
import { childConnection, edgeArgsQuery, knownChildren, readsBeyondKey, prefetchScope, RestFilter, someField, type SubgraphContext } from "../../shared/graphql/index.js";
import { workContractsByOwnerLoader } from "../../shared/legacy/work-contracts.js";
import { groupBy, isListable } from "../../shared/upstream/index.js";
import { readsDefinitionDetails } from "../employee-attribute/definition-selection.js";
import { employmentsOfEmployee, jobPositionsOfEmployee, jobPositionsOfEmployment, reportsOfManager } from "../edges.js";
import {
  attributesByEmployeeLoader,
  employeeLoader,
  jobPositionLoader,
  jobPositionsByEmployeeLoader,
  probationaryPeriodsByEmployeeLoader,
  probationaryPeriodsByEmploymentLoader,
} from "../loaders.js";
import type { RestEmployee } from "../rest.js";

/**
 * `employee(id)`: what the operation reads of the employee that needs nothing but its id starts
 * together with the employee's own read, instead of one round after it (docs/performance.md#batching-rules):
 * - the lists of the employee (direct reports, employments, attributes), through the same loaders
 *   and arguments as their fields, whose later reads are then answered by the loaders' memo;
 * - every job position of the employee (`job-positions?employment.employee.id=`), when the
 *   operation reads the applicable position, the manager or positions of an employment: it
 *   answers the reference to the applicable position and each employment's positions, so neither
 *   waits for the employee, then for the employment, nor reads again;
 * - every probationary period of the employee, when the operation reads those of an employment;
 * - the employee's legacy work contracts, when the operation reads an employment's `workContract`
 *   (people serves it, docs/performance.md#what-a-company-router-gets).
 * Every read goes through a loader of the request (or of the operation, operation-scope.ts), so a
 * second request of the operation that asks the same finds it read or in flight.
 * Nothing here answers the client: a read that fails is read again by its field, which reports it.
 * The cost of an employee that does not exist is these reads, made for nothing.
 * Fires on every `employee(id)` whose operation reads any of these; SUBGRAPH_MECHANISMS_OFF=prefetch-employee
 * turns it off, for measuring it (docs/performance.md#which-mechanism-fires-when).
 */
export function prefetchEmployee(ctx: SubgraphContext, info: GraphQLResolveInfo, id: string): void {
  if (!isListable(id) || ctx.mechanismsOff?.has("prefetch-employee")) return;
  const scope = prefetchScope(info);
  if (!scope) return;
  const { fields, args, childInfo, start: startIgnoringFailure } = scope;
  const mentions = (name: string, field: string) => fields.get(name)?.some((node) => deepMentions(node, field, info)) ?? false;

  const reports = fields.get("directReports")?.[0];
  if (reports) {
    const a = args(reports);
    startIgnoringFailure(() => childConnection(ctx, childInfo(reports), reportsOfManager, id, a, edgeArgsQuery(reportsOfManager, a)));
  }
  const employments = fields.get("employments")?.[0];
  if (employments) startIgnoringFailure(() => childConnection(ctx, childInfo(employments), employmentsOfEmployee, id, args(employments)));
  const attributes = fields.get("attributes")?.[0];
  if (attributes) {
    const a = args(attributes);
    startIgnoringFailure(() => {
      const query = new RestFilter("attributes").strings("definition.id", "definitionIds", a.definitionIds ?? null).value("applicability.asOf", a.asOf ?? null).query;
      return attributesByEmployeeLoader(ctx, query, readsDefinitionDetails(childInfo(attributes))).load(id);
    });
  }

  const readsApplicablePosition = fields.get("applicableJobPosition")?.some((n) => readsBeyondKey(n.selectionSet?.selections ?? [], info)) ?? false;
  if (fields.has("manager") || readsApplicablePosition || fields.has("jobPositions") || mentions("employments", "jobPositions")) {
    const positions = jobPositionsByEmployeeLoader(ctx).load(id);
    jobPositionLoader(ctx).expectAll(positions);
    knownChildren(ctx, jobPositionsOfEmployee).expect(positions.then((list) => [[id, list] as const]));
    knownChildren(ctx, jobPositionsOfEmployment).expect(positions.then((list) => groupBy(list, (p) => p.employment.id)));
    void positions.catch(() => undefined);
  }

  if (mentions("applicableEmployment", "workContract") || mentions("employments", "workContract")) {
    startIgnoringFailure(() => workContractsByOwnerLoader(ctx).load(id));
  }

  if (mentions("applicableEmployment", "probationaryPeriods") || mentions("employments", "probationaryPeriods")) {
    const periods = probationaryPeriodsByEmployeeLoader(ctx).load(id).then((list) => list ?? []);
    const employee = employeeLoader(ctx).load(id) as Promise<RestEmployee | null>;
    probationaryPeriodsByEmploymentLoader(ctx).expect(
      Promise.all([periods, employee]).then(([list, found]) => {
        const groups = groupBy(list, (p) => p.employment.id);
        // the applicable employment is the employee's: no period on the list means none at all
        const applicable = found?.applicableEmployment?.id;
        if (applicable && !groups.has(applicable)) groups.set(applicable, []);
        return groups;
      }),
    );
    void periods.catch(() => undefined);
  }
}

/** Whether a field named `name` is selected anywhere below `node`. */
function deepMentions(node: FieldNode, name: string, info: GraphQLResolveInfo): boolean {
  return someField(node.selectionSet?.selections ?? [], info, (f) => f.name.value === name || deepMentions(f, name, info));
}
