/**
 * The schemes of the kinds of object storage, one provider each in object-stores.ts (whose table is typed by this
 * list, so the two cannot differ). Apart from the providers so that telling a store location's URI from a folder
 * loads none of them: a search in a local index never needs S3's request signing.
 */
export const OBJECT_STORE_SCHEMES = ['s3', 'file'] as const;

export type ObjectStoreScheme = (typeof OBJECT_STORE_SCHEMES)[number];
