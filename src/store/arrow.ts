import { createRequire } from 'node:module';

/**
 * LanceDB's JavaScript build loads apache-arrow through require(); an ESM import would give a second copy
 * of the module whose classes fail LanceDB's instanceof checks. So the store takes the same copy.
 */
const arrow = createRequire(import.meta.url)('apache-arrow') as typeof import('apache-arrow');
export default arrow;
