/** Types of scripts/runtime.mjs, for the tests. */
export declare const PROJECT_FILES: string[];
export declare const VENDOR_FILES: string[];
export declare function copyRuntime(root: string, out: string, nft?: { nodeFileTrace: unknown }): Promise<string[]>;
