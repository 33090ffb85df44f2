// Methods inside classes shorter than one chunk: find_symbol finds them by their own name and qualified by their
// class (Java `Engine.retryWithBackoff`, C++ `BluetoothManager::reconnectDevice`), with the method's own lines, and a
// search naming the method ranks the method's chunk first.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { findSymbol as findSymbolIn, search, serveFixtureWith } from './mcp-helpers.js';

const ENGINE_JAVA = `package com.acme.jobs;

import java.util.Queue;

/** Runs queued jobs, again when they fail. */
public class Engine {
    private static final int MAX_RETRIES = 5;
    private final Queue<Job> queue;

    public Engine(Queue<Job> queue) {
        this.queue = queue;
    }

    /** Takes the next job off the queue and runs it. */
    public boolean runNext() throws InterruptedException {
        Job job = queue.poll();
        if (job == null) return false;
        retryWithBackoff(job);
        return true;
    }

    /** Runs a job until it succeeds, doubling the pause between attempts. */
    public void retryWithBackoff(Job job) throws InterruptedException {
        long delay = 100;
        for (int attempt = 0; attempt < MAX_RETRIES; attempt++) {
            if (job.run()) return;
            Thread.sleep(delay);
            delay *= 2;
        }
    }
}
`;

const BLUETOOTH_CPP = `#include <string>
#include <vector>

// Keeps paired devices connected.
class BluetoothManager {
public:
    explicit BluetoothManager(int adapter) : adapter_(adapter) {}

    // Pairs again with a device that dropped its link.
    bool reconnectDevice(const std::string& address) {
        for (int attempt = 0; attempt < 3; ++attempt) {
            if (pair(address)) return true;
        }
        return false;
    }

    std::vector<std::string> pairedDevices() const {
        return paired_;
    }

private:
    bool pair(const std::string& address) {
        paired_.push_back(address);
        return true;
    }

    int adapter_;
    std::vector<std::string> paired_;
};
`;

/** 1-based line of the only line of `source` holding `needle`. */
function lineOf(source: string, needle: string): number {
  const lines = source.split('\n');
  const at = lines.findIndex((line) => line.includes(needle));
  assert.ok(at >= 0 && lines.findIndex((line, i) => i > at && line.includes(needle)) < 0, needle);
  return at + 1;
}

describe('methods inside small Java and C++ classes, by find_symbol and by search ranking', () => {
  let client: Client;

  before(async () => {
    client = await serveFixtureWith({ 'java/src/main/java/com/acme/jobs/Engine.java': ENGINE_JAVA, 'native/bluetooth_manager.cpp': BLUETOOTH_CPP });
  });

  after(async () => {
    await client?.close();
  });

  const findSymbol = (name: string) => findSymbolIn(client, name);

  test('a Java method is found by its name and qualified by its class, on its own lines', async () => {
    const lines = [lineOf(ENGINE_JAVA, '/** Runs a job until'), lineOf(ENGINE_JAVA, 'delay *= 2') + 2];
    for (const name of ['retryWithBackoff', 'Engine.retryWithBackoff', 'Engine::retryWithBackoff']) {
      const [found] = await findSymbol(name);
      assert.equal(found?.symbol, 'class Engine > method retryWithBackoff', `find_symbol ${name}`);
      assert.equal(found.match, 'exact');
      assert.deepEqual([found.path, found.startLine, found.endLine], ['java/src/main/java/com/acme/jobs/Engine.java', ...lines]);
      assert.match(found.code, /^ {4}\/\*\* Runs a job until/);
    }
    assert.equal((await findSymbol('Engine'))[0]?.symbol, 'class Engine', 'the class still answers for its own name');
    const [field] = await findSymbol('Engine.MAX_RETRIES');
    assert.deepEqual([field?.symbol, field?.startLine, field?.endLine], ['class Engine > field MAX_RETRIES', lineOf(ENGINE_JAVA, 'MAX_RETRIES = 5'), lineOf(ENGINE_JAVA, 'MAX_RETRIES = 5')]);
  });

  test('a C++ method is found by its name, as Class::method and as Class.method', async () => {
    const lines = [lineOf(BLUETOOTH_CPP, '// Pairs again'), lineOf(BLUETOOTH_CPP, 'return false;') + 1];
    for (const name of ['reconnectDevice', 'BluetoothManager::reconnectDevice', 'BluetoothManager.reconnectDevice']) {
      const [found] = await findSymbol(name);
      assert.equal(found?.symbol, 'class BluetoothManager > method reconnectDevice', `find_symbol ${name}`);
      assert.deepEqual([found.path, found.startLine, found.endLine], ['native/bluetooth_manager.cpp', ...lines]);
    }
    assert.deepEqual((await findSymbol('OtherClass::reconnectDevice')).map((f) => f.symbol), [], 'a wrong qualifier finds nothing');
  });

  test('a search naming the method ranks the method\'s chunk first', async () => {
    for (const query of ['retryWithBackoff', 'Engine.retryWithBackoff', 'where is retryWithBackoff defined']) {
      const ranked = await search(client, query, { k: 5 });
      assert.equal(ranked[0]?.symbol, 'class Engine > method retryWithBackoff', `${query}: ${ranked.map((r) => r.symbol).join(' | ')}`);
    }
    const ranked = await search(client, 'reconnectDevice', { k: 5 });
    assert.equal(ranked[0]?.symbol, 'class BluetoothManager > method reconnectDevice', ranked.map((r) => r.symbol).join(' | '));
  });

  test('a question naming no method gets the class, never a member beside it', async () => {
    const ranked = await search(client, 'run a job again with a pause that doubles between attempts', { k: 10 });
    const engine = ranked.filter((r) => r.path.endsWith('Engine.java'));
    assert.deepEqual(engine.map((r) => r.symbol), ['class Engine'], ranked.map((r) => `${r.path} ${r.symbol}`).join(' | '));
  });
});
