import type { Static } from "@sinclair/typebox";
import { Directive, Field, ObjectType } from "type-graphql";
import type { T9n as T9nShape } from "../../../contract/rest-shapes.js";

/** One translation of a translated field (`t9n` of the REST interface). */
@ObjectType({ description: "A translation of a field into one language." })
@Directive("@shareable")
export class Translation {
  @Field(() => String, { description: "IETF language tag, e.g. fr-FR" })
  language!: string;

  @Field(() => String)
  text!: string;
}

/** REST `t9n`: field name -> (language tag -> text); a null text is a language without a translation */
export type T9n = Static<typeof T9nShape> | null | undefined;

/** The field's translations, leaving out the languages whose text is null. */
export function translations(t9n: T9n, field: string): Translation[] {
  return texts(t9n, field).map(([language, text]) => ({ language, text }));
}

function texts(t9n: T9n, field: string): Array<[string, string]> {
  return Object.entries(t9n?.[field] ?? {}).filter((entry): entry is [string, string] => entry[1] !== null);
}

/**
 * The text in `lang`: an exact tag first (`fr-FR`), then the same language (`fr` matches
 * `fr-CA`), else the invariant value.
 */
export function translate(invariant: string, t9n: T9n, field: string, lang: string | null | undefined): string;
export function translate(invariant: string | null, t9n: T9n, field: string, lang: string | null | undefined): string | null;
export function translate(invariant: string | null, t9n: T9n, field: string, lang: string | null | undefined): string | null {
  if (!lang) return invariant;
  const entries = texts(t9n, field);
  const wanted = lang.toLowerCase();
  for (const [tag, text] of entries) if (tag.toLowerCase() === wanted) return text;
  const base = wanted.split("-")[0];
  for (const [tag, text] of entries) if (tag.toLowerCase().split("-")[0] === base) return text;
  return invariant;
}
