import { createHash } from 'node:crypto';
import { createWriteStream, promises as fsp } from 'node:fs';
import { dirname, join } from 'node:path';
import { deferredCaCerts, huggingFaceEndpoint, huggingFaceToken } from '../../config/environment.js';
import { trustedFetch } from '../../util/fetch-remote.js';
import { moduleConfigFiles, MODULES_FILE } from './model-layout.js';
import { ST_CONFIG_FILE } from '../runtime/prompts.js';
import { ModelUnavailableError, OcragError } from '../../util/errors.js';
import { cachedModelDir, installModel, isCompleteModelFolder, isValidModelName, MANIFEST_FILE, type ModelManifest } from './model-cache.js';

export interface PullOptions {
  onProgress?: (message: string) => void;
  /** Hub revision (branch, tag or commit); default "main". */
  revision?: string;
  /** Re-download even if the model is already in the cache. */
  force?: boolean;
  /** How long to wait for the hub to answer (connection + response headers); default 10 s. */
  timeoutMs?: number;
}

const REQUIRED_FILES = ['config.json', 'tokenizer.json'];
/** Besides the tokenizer's extras, sentence-transformers' files: how the model pools, prompts and truncates. */
const OPTIONAL_FILES = ['tokenizer_config.json', 'special_tokens_map.json', ST_CONFIG_FILE, MODULES_FILE, 'sentence_bert_config.json'];
const ONNX_CHOICES = ['onnx/model.onnx', 'onnx/model_quantized.onnx'];
/** A download that delivers no bytes for this long is abandoned. */
const STALL_MS = 60_000;

class HubUnreachable extends Error {}
/** The hub answered, but not with the model: not found, not a Transformers.js model, a failed or stalled download. */
class HubAnswer extends Error {}

/**
 * Downloads a Transformers.js model (config, tokenizer, sentence-transformers layout, one ONNX file) from the Hugging Face hub
 * into `<cache>/models/<hubId>/`, only when the user runs `ocrag model pull` (the other network access: artifacts and team stores the user names). The hub is probed before
 * anything is written, and files land in a temp folder renamed into place only when complete.
 */
export async function pullModel(hubId: string, options: PullOptions = {}): Promise<string> {
  if (!isValidModelName(hubId) || !hubId.includes('/')) throw new OcragError(`"${hubId}" is not a hub model id (owner/name)`);
  const finalDir = cachedModelDir(hubId);
  if (!options.force && isCompleteModelFolder(finalDir)) return finalDir;
  const hub = new HubClient(hubId, options);
  try {
    await hub.probe();
    return await installModel(hubId, (tmpDir) => downloadInto(hub, tmpDir, options.onProgress), { replace: options.force });
  } catch (err) {
    // Every way the model does not arrive is exit 5 (README "Exit codes"), one line; a disk error stays what it is.
    if (err instanceof HubUnreachable) {
      throw new ModelUnavailableError(`could not reach the model hub (${hub.endpoint}: ${err.message}); copy a model folder and pass --model <folder>`);
    }
    if (err instanceof HubAnswer) throw new ModelUnavailableError(err.message);
    throw err;
  }
}

async function downloadInto(hub: HubClient, dir: string, onProgress?: (message: string) => void): Promise<void> {
  const files: ModelManifest['files'] = {};
  const fetchFile = async (rel: string, required: boolean): Promise<boolean> => {
    onProgress?.(`downloading ${hub.hubId}/${rel}`);
    const info = await hub.download(rel, join(dir, rel));
    if (info) files[rel] = info;
    else if (required) throw new HubAnswer(`model "${hub.hubId}" has no ${rel} on the hub; it is not a Transformers.js model`);
    return info !== undefined;
  };
  for (const rel of REQUIRED_FILES) await fetchFile(rel, true);
  for (const rel of OPTIONAL_FILES) await fetchFile(rel, false);
  // Module folders are named by modules.json (usually 1_Pooling/), so they are known only once it is here.
  for (const rel of moduleConfigFiles(dir)) await fetchFile(rel, false);
  let haveOnnx = false;
  for (const rel of ONNX_CHOICES) if (!haveOnnx) haveOnnx = await fetchFile(rel, false);
  if (!haveOnnx) throw new HubAnswer(`model "${hub.hubId}" has no onnx/model.onnx or onnx/model_quantized.onnx; it is not a Transformers.js model`);
  const manifest: ModelManifest = { name: hub.hubId, kind: 'pulled', createdAt: new Date().toISOString(), source: hub.baseUrl, files };
  await fsp.writeFile(join(dir, MANIFEST_FILE), JSON.stringify(manifest, null, 1));
}

class HubClient {
  readonly endpoint = (huggingFaceEndpoint() ?? 'https://huggingface.co').replace(/\/+$/, '');
  readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(
    readonly hubId: string,
    options: PullOptions,
  ) {
    this.baseUrl = `${this.endpoint}/${hubId}/resolve/${encodeURIComponent(options.revision ?? 'main')}`;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** Fails fast, before the cache is touched, when offline or when the model does not exist. */
  async probe(): Promise<void> {
    const response = await this.request('config.json', 'HEAD');
    if (response.status === 404 || response.status === 401) throw new HubAnswer(`model "${this.hubId}" not found on the hub (${response.status})`);
    if (!response.ok) throw new HubUnreachable(`HTTP ${response.status}`);
  }

  /** Streams one file to disk; undefined if the hub does not have it. */
  async download(rel: string, target: string): Promise<{ bytes: number; sha256: string } | undefined> {
    const response = await this.request(rel, 'GET');
    if (response.status === 404) return undefined;
    if (!response.ok || !response.body) throw new HubAnswer(`downloading ${rel} from ${this.baseUrl} failed: HTTP ${response.status}`);
    await fsp.mkdir(dirname(target), { recursive: true });
    const hash = createHash('sha256');
    let bytes = 0;
    const out = createWriteStream(target);
    const reader = response.body.getReader();
    try {
      for (;;) {
        let step: ReadableStreamReadResult<Uint8Array>;
        try {
          step = await withStallTimeout(reader.read(), rel);
        } catch (err) {
          // The connection is closed, or a stalled one would keep the process alive.
          await reader.cancel().catch(() => undefined);
          if (err instanceof HubAnswer) throw err;
          throw new HubUnreachable(`download of ${rel} broke off: ${(err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message}`);
        }
        const { done, value } = step;
        if (done) break;
        hash.update(value);
        bytes += value.byteLength;
        if (!out.write(value)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      }
    } finally {
      await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    }
    return { bytes, sha256: hash.digest('hex') };
  }

  private async request(rel: string, method: 'GET' | 'HEAD'): Promise<Response> {
    const headers: Record<string, string> = {};
    const token = huggingFaceToken();
    if (token) headers.authorization = `Bearer ${token}`;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    try {
      return await trustedFetch(new URL(`${this.baseUrl}/${rel}`), { method, headers, signal: controller.signal, redirect: 'follow' }, deferredCaCerts());
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const reason = controller.signal.aborted ? `no answer within ${this.timeoutMs / 1000} s` : (cause?.code ?? cause?.message ?? (err as Error).message);
      throw new HubUnreachable(reason);
    } finally {
      clearTimeout(timer); // only the wait for headers is bounded; the body has its own stall timeout
    }
  }
}

function withStallTimeout<T>(read: Promise<T>, rel: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stall = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HubAnswer(`download of ${rel} stalled for ${STALL_MS / 1000} s`)), STALL_MS);
  });
  return Promise.race([read, stall]).finally(() => clearTimeout(timer));
}
