import { registerEnumType } from "type-graphql";

/**
 * The status shared by employees, employments and job positions (read-only, computed by the
 * directory from the employments as of today). Internal values are the REST values, so that
 * resolvers pass REST payloads through and filters send arguments as they come.
 */
export enum EmploymentStatus {
  ACTIVE = "active",
  UPCOMING = "upcoming",
  DEACTIVATED = "deactivated",
}

registerEnumType(EmploymentStatus, {
  name: "EmploymentStatus",
  description: "active: an employment as of today; upcoming: none today but one in the future; deactivated: had one, has none now.",
});
