/** the image's components: `node dist/<name>.mjs` runs the entry */
export declare const COMPONENTS: Record<string, string>;
