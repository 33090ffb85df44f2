import { createRequire } from 'node:module';

/**
 * The one Arrow module of ocrag: chunk batches cross the store contract as Arrow record batches (see
 * contract.ts), so code outside store/ that builds or reads them (share's artifact entries) takes Arrow from here.
 * LanceDB's JavaScript build loads apache-arrow through require(); an ESM import would give a second copy of the
 * module whose classes fail LanceDB's instanceof checks. So the store takes the same copy.
 */
const arrow = createRequire(import.meta.url)('apache-arrow') as typeof import('apache-arrow');
export default arrow;
export type { Data, DataType, RecordBatch, Schema, Utf8 } from 'apache-arrow';
