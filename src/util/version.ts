import { createRequire } from 'node:module';

/** The package's version, which scripts/bundle-cli.mjs writes into the bundle: read there, package.json is ~2 ms of a warm search. */
declare const OCRAG_BUNDLE_VERSION: string | undefined;

export const VERSION: string = typeof OCRAG_BUNDLE_VERSION === 'string' ? OCRAG_BUNDLE_VERSION : (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
