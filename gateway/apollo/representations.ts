/**
 * Each entity asked of a subgraph once per fetch. @apollo/gateway builds one representation per
 * place an entity appears in the answer: the large list's hundred employees name a dozen
 * departments, and its fetch sent organisation a hundred representations, which the subgraph
 * resolved, serialised and the gateway parsed a hundred times. The data source sends the distinct
 * ones and hands the gateway back one entity per representation it built, in its order
 * (`expandEntities`), as Apollo Router does. Equal representations are the same entity: the same
 * object answers each place (the gateway merges it into each; merging and its rewrites are the
 * same on the same object twice), and an error of that entity is repeated at each index.
 */

export interface Distinct {
  representations: unknown[];
  /** for each representation the gateway built, the index of its distinct one */
  of: number[];
}

/** The distinct representations of a fetch, or null when there are no two alike. */
export function distinctRepresentations(representations: readonly unknown[]): Distinct | null {
  // most representations are `{ __typename, id }`: those are told apart by their id within their
  // type, with no text made for them (a JSON key per representation was 9% of the gateway's CPU
  // on the large list); any other by its JSON
  const byType = new Map<string, Map<string, number>>();
  let byJson: Map<string, number> | undefined;
  const distinct: unknown[] = [];
  const of = new Array<number>(representations.length);
  for (let i = 0; i < representations.length; i++) {
    const representation = representations[i];
    let index: Map<string, number>;
    let key: string;
    if (isTypeAndId(representation)) {
      index = byType.get(representation.__typename) ?? byType.set(representation.__typename, new Map()).get(representation.__typename)!;
      key = representation.id;
    } else {
      index = byJson ??= new Map();
      key = JSON.stringify(representation);
    }
    let at = index.get(key);
    if (at === undefined) {
      at = distinct.length;
      index.set(key, at);
      distinct.push(representation);
    }
    of[i] = at;
  }
  return distinct.length < representations.length ? { representations: distinct, of } : null;
}

function isTypeAndId(value: unknown): value is { __typename: string; id: string } {
  if (value === null || typeof value !== "object") return false;
  let fields = 0;
  for (const field in value) if (++fields > 2 || (field !== "__typename" && field !== "id")) return false;
  const { __typename, id } = value as { __typename?: unknown; id?: unknown };
  return fields === 2 && typeof __typename === "string" && typeof id === "string";
}

interface EntitiesAnswer {
  data?: { _entities?: unknown } | null;
  errors?: ReadonlyArray<{ path?: ReadonlyArray<string | number> }>;
}

/**
 * The answer to the distinct representations, as the answer to all of them: `_entities` at each
 * index, and each error of an entity at each of its indexes. An answer whose `_entities` is not
 * one per distinct representation is left as it is, for the gateway to refuse as it would have.
 */
export function expandEntities<T extends EntitiesAnswer>(answer: T, distinct: Distinct): T {
  const entities = answer.data?._entities;
  if (!Array.isArray(entities) || entities.length !== distinct.representations.length) return answer;
  const errors = answer.errors?.flatMap((error) => {
    const [first, at, ...rest] = error.path ?? [];
    if (first !== "_entities" || typeof at !== "number" || at >= entities.length) return [error];
    return distinct.of.flatMap((of, i) => (of === at ? [{ ...error, path: ["_entities", i, ...rest] }] : []));
  });
  return { ...answer, data: { ...answer.data, _entities: distinct.of.map((at) => entities[at]) }, ...(errors ? { errors } : {}) };
}
