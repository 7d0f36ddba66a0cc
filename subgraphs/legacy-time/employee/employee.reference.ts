import { keyOnlyReference } from "../../shared/graphql/index.js";

/**
 * The people subgraph resolves the employee itself; the fields contributed here load what they
 * need from the key, so a reference costs no call.
 */
export const employeeReference = keyOnlyReference;
