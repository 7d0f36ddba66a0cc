/**
 * The REST payloads of the current API that the people subgraph reads (docs/interface.md#current-api-resources),
 * typed from the shapes declared once in contract/rest-shapes.ts (the ones the conformance test holds
 * the in-process service to and the upstream client checks answers against). `links` and
 * `embedded` are present only where asked for: an employee's `links` when an operation selects a
 * portrait's address (`include=links`, employee/portrait.ts), the embedded attribute definitions
 * (employee-attribute/).
 */

import type { Static } from "@sinclair/typebox";
import type * as Shapes from "../../contract/rest-shapes.js";
import type { Ref } from "../shared/upstream/index.js";

/** A reference object of the current API, `{id, type, url}`. */
export type RestRef = Ref;

export type RestEmployee = Static<typeof Shapes.employee>;
/** `GET /portraits/{id}`: the portrait's metadata (employee/portrait.ts). */
export type RestPortrait = Static<typeof Shapes.portrait>;
export type RestEmployment = Static<typeof Shapes.employment>;
export type RestJobPosition = Static<typeof Shapes.jobPosition>;
/** docs/interface.md#employee-attribute: with the employment or job position it comes from, when it does */
export type RestEmployeeAttribute = Static<typeof Shapes.employeeAttribute>;
/** The embedded form, the only form the interface has (docs/interface.md#employee-attribute-definition). */
export type RestEmployeeAttributeDefinition = Static<typeof Shapes.employeeAttributeDefinition>;
export type RestEmployeePersonalRecord = Static<typeof Shapes.employeePersonalRecord>;
export type RestProbationaryPeriod = Static<typeof Shapes.probationaryPeriod>;
