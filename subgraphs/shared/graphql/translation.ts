import { Directive, Field, ObjectType } from "type-graphql";

/** One translation of a translated field (`t9n` of the REST interface). */
@ObjectType({ description: "A translation of a field into one language." })
@Directive("@shareable")
export class Translation {
  @Field(() => String, { description: "IETF language tag, e.g. fr-FR" })
  language!: string;

  @Field(() => String)
  text!: string;
}

/** REST `t9n`: field name -> (language tag -> text) */
export type T9n = Record<string, Record<string, string>> | null | undefined;

export function translations(t9n: T9n, field: string): Translation[] {
  const entries = t9n?.[field] ?? {};
  return Object.entries(entries).map(([language, text]) => ({ language, text }));
}

/**
 * The text in `lang`: an exact tag first (`fr-FR`), then the same language (`fr` matches
 * `fr-CA`), else the invariant value.
 */
export function translate(invariant: string, t9n: T9n, field: string, lang: string | null | undefined): string;
export function translate(invariant: string | null, t9n: T9n, field: string, lang: string | null | undefined): string | null;
export function translate(invariant: string | null, t9n: T9n, field: string, lang: string | null | undefined): string | null {
  if (!lang) return invariant;
  const entries = t9n?.[field];
  if (!entries) return invariant;
  const wanted = lang.toLowerCase();
  for (const [tag, text] of Object.entries(entries)) if (tag.toLowerCase() === wanted) return text;
  const base = wanted.split("-")[0];
  for (const [tag, text] of Object.entries(entries)) if (tag.toLowerCase().split("-")[0] === base) return text;
  return invariant;
}
