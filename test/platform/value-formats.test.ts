import { buildSchema, parse, type GraphQLInputObjectType, type GraphQLScalarType } from "graphql";
import { describe, expect, it } from "vitest";
import { checkOperation, isRange, scalarFormat } from "../../platform/input-checks.js";

/**
 * The value rules of platform/input-checks.ts come from the schema it is given, never from type
 * names: a scalar's format from its `@specifiedBy` URL, a range from its shape. A schema whose names
 * are nothing like the directory's gets the same refusals, and a look-alike without the format none.
 */

const schema = buildSchema(`
  scalar Day @specifiedBy(url: "https://www.rfc-editor.org/rfc/rfc3339#section-5.6")
  scalar Moment @specifiedBy(url: "https://spec.openapis.org/registry/format/date-time-local")
  scalar Stamp @specifiedBy(url: "https://example.com/unknown-format")
  scalar Date
  input Span { from: Day, to: Day }
  input MomentSpan { from: Moment!, to: Moment }
  input Mixed { from: Day, to: Moment }
  input Wider { from: Day, to: Day, step: Int }
  input StampSpan { from: Stamp, to: Stamp }
  input NamedLikeARange { from: Date, to: Date }
  type Query { days(on: Day, span: Span, spans: [Span!], moment: Moment, moments: MomentSpan, mixed: Mixed, wider: Wider, stamps: StampSpan, date: Date, named: NamedLikeARange): Int }
  type Mutation { write(on: Day, moment: Moment, moments: MomentSpan): Int }
`);

function refusal(source: string) {
  const document = parse(source);
  const operation = document.definitions[0] as never;
  try {
    checkOperation(schema, document, operation, {}, { ids: () => null });
  } catch (err) {
    const { message, extensions } = err as { message: string; extensions: Record<string, unknown> };
    return { message, code: extensions.code, field: extensions.field };
  }
  return null;
}

const input = (name: string) => schema.getType(name) as GraphQLInputObjectType;

describe("value formats by @specifiedBy", () => {
  it("knows RFC 3339's full-date and date-time without offset, and nothing by a scalar's name", () => {
    expect(scalarFormat(schema.getType("Day") as GraphQLScalarType)?.expected).toBe("a calendar date as YYYY-MM-DD");
    expect(scalarFormat(schema.getType("Moment") as GraphQLScalarType)?.expected).toMatch(/local date-time without offset/);
    expect(scalarFormat(schema.getType("Stamp") as GraphQLScalarType)).toBeUndefined();
    expect(scalarFormat(schema.getType("Date") as GraphQLScalarType)).toBeUndefined();
  });

  it("refuses a value that is not of its scalar's format, whatever the scalar is called", () => {
    expect(refusal(`{ days(on: "2026-02-30") }`)).toEqual({ message: 'days.on must be a calendar date as YYYY-MM-DD, got "2026-02-30"', code: "BAD_USER_INPUT", field: "on" });
    expect(refusal(`{ days(moment: "2026-01-01T00:00:00+02:00") }`)).toEqual({
      message: 'days.moment must be a local date-time without offset as YYYY-MM-DDTHH:mm:ss on a calendar day, got "2026-01-01T00:00:00+02:00"',
      code: "BAD_USER_INPUT",
      field: "moment",
    });
    expect(refusal(`{ days(on: "2024-02-29", moment: "2026-01-01T23:59:59.1234567") }`)).toBeNull();
    expect(refusal(`{ days(date: "2026-02-30") }`)).toBeNull();
  });

  it("refuses the date-time format in mutations to their resolvers, the date format not", () => {
    expect(refusal(`mutation { write(on: "2026-02-30") }`)?.message).toBe('write.on must be a calendar date as YYYY-MM-DD, got "2026-02-30"');
    expect(refusal(`mutation { write(moment: "2026-01-01T00:00:00Z") }`)).toBeNull();
  });
});

describe("ranges by shape", () => {
  it("is an input of exactly `from` and `to` of one scalar with a known format", () => {
    expect(isRange(input("Span"))).toBe(true);
    expect(isRange(input("MomentSpan"))).toBe(true);
    expect(isRange(input("Mixed"))).toBe(false);
    expect(isRange(input("Wider"))).toBe(false);
    expect(isRange(input("StampSpan"))).toBe(false);
    expect(isRange(input("NamedLikeARange"))).toBe(false);
  });

  it("refuses a range that starts after it ends, in lists and in mutations too, and leaves an open bound alone", () => {
    expect(refusal(`{ days(span: { from: "2026-05-01", to: "2026-01-01" }) }`)).toEqual({
      message: "days.span starts (2026-05-01) after it ends (2026-01-01)",
      code: "BAD_USER_INPUT",
      field: "span",
    });
    expect(refusal(`{ days(spans: [{ from: "2026-01-01" }, { from: "2026-05-01", to: "2026-01-01" }]) }`)?.message).toBe("days.spans starts (2026-05-01) after it ends (2026-01-01)");
    expect(refusal(`mutation { write(moments: { from: "2026-01-02T00:00:00", to: "2026-01-01T00:00:00" }) }`)?.message).toBe(
      "write.moments starts (2026-01-02T00:00:00) after it ends (2026-01-01T00:00:00)",
    );
    expect(refusal(`{ days(span: { from: "2026-05-01" }, moments: { from: "2026-01-01T00:00:00", to: "2026-01-01T00:00:00" }) }`)).toBeNull();
    expect(refusal(`{ days(wider: { from: "2026-05-01", to: "2026-01-01" }, stamps: { from: "b", to: "a" }, named: { from: "2026-05-01", to: "2026-01-01" }) }`)).toBeNull();
  });
});
