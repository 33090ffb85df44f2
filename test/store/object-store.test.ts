// The object-store contract a team remote is built on, held to every provider alike: the folder one, and S3
// against a real s3rver on 127.0.0.1. A new provider is added to PROVIDERS here as it is in object-stores.ts.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { ObjectStore } from '../../src/store/object-store.js';
import { isObjectUrl, openObjectStore } from '../../src/store/object-stores.js';
import { OcragError, RemoteUnavailableError } from '../../src/util/errors.js';
import { tempDir } from '../helpers.js';
import { startS3, type S3Server } from '../share/s3-server.js';

let s3: S3Server;
before(async () => {
  s3 = await startS3();
  Object.assign(process.env, s3.env);
});
after(() => s3.stop());

/** `conditional`: the store honours a conditional put (s3rver 3.7 ignores If-None-Match, which AWS honours; the lease reads its token back for such servers). */
const PROVIDERS: { name: string; conditional: boolean; open(): { store: ObjectStore; url: string } }[] = [
  {
    name: 'a folder (file://)',
    conditional: true,
    open: () => {
      const url = pathToFileURL(path.join(tempDir('objects'), 'team')).href;
      return { store: openObjectStore(url), url };
    },
  },
  {
    name: 'S3 (s3rver)',
    conditional: false,
    open: () => {
      const url = `s3://team/objects-${Math.random().toString(36).slice(2, 8)}`;
      return { store: openObjectStore(url), url };
    },
  },
];

for (const provider of PROVIDERS) {
  describe(`the object store of ${provider.name}`, () => {
    test('put, get, list, delete by key; nothing there is null, not an error', async () => {
      const { store, url } = provider.open();
      assert.equal(store.shown(), url);
      assert.equal(store.shown('identity.json'), `${url}/identity.json`);
      assert.equal(await store.get('identity.json'), null);
      assert.deepEqual(await store.list(''), []);
      assert.equal(await store.put('identity.json', '{"a":1}\n'), true);
      await store.put('search/abc.snap', Buffer.from([0, 1, 2, 255]));
      await store.put('manifests/name-org%2Fx/branch-main.json', '{}');
      assert.equal((await store.get('identity.json'))!.toString('utf8'), '{"a":1}\n');
      assert.deepEqual(await store.get('search/abc.snap'), Buffer.from([0, 1, 2, 255]));
      assert.deepEqual(await store.list(''), ['identity.json', 'manifests/name-org%2Fx/branch-main.json', 'search/abc.snap']);
      assert.deepEqual(await store.list('search/'), ['search/abc.snap']);
      await store.put('identity.json', 'replaced');
      assert.equal((await store.get('identity.json'))!.toString('utf8'), 'replaced');
      await store.delete('identity.json');
      await store.delete('identity.json');
      assert.equal(await store.get('identity.json'), null);
      const file = path.join(tempDir('download'), 'snap');
      assert.equal(await store.download('search/abc.snap', file), true);
      assert.deepEqual(fs.readFileSync(file), Buffer.from([0, 1, 2, 255]));
      assert.equal(await store.download('search/none.snap', file), false);
    });

    test('a conditional put writes only where nothing is: how publishers take turns', { skip: !provider.conditional && 'the server ignores If-None-Match' }, async () => {
      const { store } = provider.open();
      assert.equal(await store.put('publish.lease', 'first', { ifAbsent: true }), true);
      assert.equal(await store.put('publish.lease', 'second', { ifAbsent: true }), false);
      assert.equal((await store.get('publish.lease'))!.toString('utf8'), 'first');
      const tries = await Promise.all([1, 2, 3, 4].map((n) => store.put('race.lease', String(n), { ifAbsent: true })));
      assert.equal(tries.filter(Boolean).length, 1, JSON.stringify(tries));
      assert.deepEqual(await store.list('publish'), ['publish.lease']);
    });

    test('a record past its size is refused as an answer, not as a remote that is down', async () => {
      const { store } = provider.open();
      await store.put('search/big.json', Buffer.alloc(2048, 'x'));
      await assert.rejects(store.get('search/big.json', 1024), (e: unknown) => e instanceof RemoteUnavailableError && !e.unreachable && /more than 1024 bytes/.test(e.message));
      assert.equal((await store.get('search/big.json', 2048))!.length, 2048);
    });

    test('its tables are a URI LanceDB connects to, with the options it needs', () => {
      const { store, url } = provider.open();
      const tables = store.tables('lance');
      if (url.startsWith('s3://')) {
        assert.equal(tables.uri, `${url}/lance`);
        assert.equal(tables.storageOptions.aws_access_key_id, 'S3RVER');
        assert.equal(tables.storageOptions.aws_endpoint, s3.env.AWS_ENDPOINT_URL);
      } else {
        assert.equal(tables.uri, `${url}/lance`);
        assert.deepEqual(tables.storageOptions, {});
      }
    });
  });
}

test('the provider is chosen by the URL: s3://, file:// or an absolute path; anything else is named and refused', () => {
  const dir = path.join(tempDir('objects-choice'), 'team');
  assert.equal(openObjectStore(dir).shown('x'), `${dir}/x`);
  assert.equal(openObjectStore(pathToFileURL(dir).href).tables('lance').uri, pathToFileURL(path.join(dir, 'lance')).href);
  assert.equal(openObjectStore('s3://team/org/x').shown('identity.json'), 's3://team/org/x/identity.json');
  assert.throws(() => openObjectStore('gs://bucket/x'), (e: unknown) => e instanceof OcragError && e.message === 'remote "gs://bucket/x" is not supported: expected s3://bucket/prefix, or file:///path/to/folder');
  assert.throws(() => openObjectStore('team/store'), (e: unknown) => e instanceof OcragError && /remote "team\/store" is not supported/.test(e.message));
  assert.deepEqual(['s3://b/k.tar', 'file:///x/k.tar', '/x/k.tar', 'gs://b/k.tar', 'https://h/k.tar'].map(isObjectUrl), [true, true, false, false, false]);
});

test("a folder's keys stay inside it", async () => {
  const store = openObjectStore(path.join(tempDir('objects-escape'), 'team'));
  for (const key of ['../outside', 'a/../../b', '/abs', 'a//b', 'a\\b']) await assert.rejects(store.put(key, 'x'), OcragError, key);
});
