import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, describe, test } from 'node:test';
import { installModel, modelsRoot } from '../../src/embed/models/model-cache.js';
import { useFreshCache } from './helpers.js';

const MODEL_CACHE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/embed/models/model-cache.ts');

/** The cache mechanics only care about the files being there, so a minimal folder will do. */
async function writeMinimalFolder(dir: string, marker: string): Promise<void> {
  fs.mkdirSync(path.join(dir, 'onnx'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ marker }));
  fs.writeFileSync(path.join(dir, 'tokenizer.json'), '{}');
  fs.writeFileSync(path.join(dir, 'onnx', 'model.onnx'), 'bytes');
}

/** Runs installModel in another process whose producer takes `ms` and logs each production. */
function installInChild(cache: string, name: string, ms: number, log: string): Promise<string> {
  const script = `
    const fs = await import('node:fs'); const path = await import('node:path');
    const { installModel } = await import(${JSON.stringify(MODEL_CACHE)});
    const dir = await installModel(${JSON.stringify(name)}, async (tmp) => {
      fs.appendFileSync(${JSON.stringify(log)}, process.pid + '\\n');
      await new Promise((r) => setTimeout(r, ${ms}));
      fs.mkdirSync(path.join(tmp, 'onnx'), { recursive: true });
      fs.writeFileSync(path.join(tmp, 'config.json'), JSON.stringify({ marker: String(process.pid) }));
      fs.writeFileSync(path.join(tmp, 'tokenizer.json'), '{}');
      fs.writeFileSync(path.join(tmp, 'onnx', 'model.onnx'), 'bytes');
    });
    console.log(dir);`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: { ...process.env, OCRAG_CACHE: cache } });
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => process.stderr.write(b));
    child.on('close', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`child exited ${code}`))));
  });
}

describe('model cache installs atomically', () => {
  let cache: string;
  before(() => {
    cache = useFreshCache();
  });

  test('two processes installing the same model: one produces it, both get the same folder', async () => {
    const log = path.join(cache, 'productions.log');
    const [a, b] = await Promise.all([installInChild(cache, 'acme/shared', 1500, log), installInChild(cache, 'acme/shared', 1500, log)]);
    assert.equal(a, b);
    assert.equal(a, path.join(modelsRoot(), 'acme', 'shared'));
    assert.equal(fs.readFileSync(log, 'utf8').trim().split('\n').length, 1);
  });

  test('a failed production installs nothing and leaves no temp folder or lock', async () => {
    await assert.rejects(
      installModel('acme/failing', async (tmp) => {
        fs.writeFileSync(path.join(tmp, 'config.json'), '{}');
        throw new Error('teacher crashed');
      }),
      /teacher crashed/,
    );
    assert.equal(fs.existsSync(path.join(modelsRoot(), 'acme', 'failing')), false);
    assert.deepEqual(fs.readdirSync(path.join(modelsRoot(), '.tmp')), []);
    assert.deepEqual(fs.readdirSync(path.join(modelsRoot(), '.locks')), []);
  });

  test('an incomplete production is refused', async () => {
    await assert.rejects(
      installModel('acme/incomplete', async (tmp) => fs.writeFileSync(path.join(tmp, 'config.json'), '{}')),
      /produced incomplete/,
    );
    assert.equal(fs.existsSync(path.join(modelsRoot(), 'acme', 'incomplete')), false);
  });

  test('the lock of a crashed process is taken over, and its half-written temp folder cleared', async () => {
    const deadPid = Number(execFileSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).trim());
    const lockDir = path.join(modelsRoot(), '.locks', 'acme__crashed.lock');
    fs.mkdirSync(lockDir, { recursive: true });
    fs.writeFileSync(path.join(lockDir, 'owner.json'), JSON.stringify({ pid: deadPid, host: hostname() }));
    const leftover = path.join(modelsRoot(), '.tmp', 'acme__crashed-abc123');
    fs.mkdirSync(leftover, { recursive: true });
    const started = Date.now();
    const dir = await installModel('acme/crashed', (tmp) => writeMinimalFolder(tmp, 'fresh'));
    assert.ok(Date.now() - started < 5_000);
    assert.equal(JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).marker, 'fresh');
    assert.equal(fs.existsSync(leftover), false);
  });

  test('replace swaps in a new folder whole; without replace the installed one is reused', async () => {
    const first = await installModel('acme/swap', (tmp) => writeMinimalFolder(tmp, 'one'));
    let produced = false;
    await installModel('acme/swap', async (tmp) => {
      produced = true;
      await writeMinimalFolder(tmp, 'never');
    });
    assert.equal(produced, false);
    const second = await installModel('acme/swap', (tmp) => writeMinimalFolder(tmp, 'two'), { replace: true });
    assert.equal(second, first);
    assert.equal(JSON.parse(fs.readFileSync(path.join(second, 'config.json'), 'utf8')).marker, 'two');
    assert.deepEqual(fs.readdirSync(path.join(modelsRoot(), '.tmp')), []);
  });
});
