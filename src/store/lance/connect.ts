import fs from 'node:fs';
import './lance-env.js';
import * as lancedb from '@lancedb/lancedb';
import { lanceStorageOptions, s3Settings } from '../s3/settings.js';

/** Tables named by a URI (`s3://…`) are on object storage; anything else is a local folder. */
export function isRemoteTables(dir: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(dir);
}

/** A connection to the tables: a local folder (made if missing), or object storage with the AWS settings in memory. */
export async function connectTables(dir: string): Promise<lancedb.Connection> {
  if (!isRemoteTables(dir)) {
    fs.mkdirSync(dir, { recursive: true });
    return lancedb.connect(dir);
  }
  return lancedb.connect(dir, { storageOptions: lanceStorageOptions(s3Settings()) });
}

/**
 * Which of these tables exist. A folder lists them; on an S3-compatible server LanceDB 0.31's tableNames()
 * answers [] (measured against s3rver 3.7) while openTable works, so there each is opened.
 */
export async function existingTables(db: lancedb.Connection, dir: string, names: string[]): Promise<Set<string>> {
  if (!isRemoteTables(dir)) return new Set(await db.tableNames());
  const found = new Set<string>();
  for (const name of names) {
    try {
      (await db.openTable(name)).close();
      found.add(name);
    } catch {
      // Missing (or unreadable, which the open that follows reports).
    }
  }
  return found;
}
