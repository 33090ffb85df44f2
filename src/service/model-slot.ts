import { loadEmbedder, type Embedder } from '../embed/index.js';
import type { CodeIndexHooks } from './code-index-options.js';

/**
 * The model of one CodeIndex, loaded (and on first use built) once: from the caller's pool when it keeps one
 * (`sharedModel`), wrapped as the caller asks. A failed load (a missing model folder, say) is not kept: the next
 * call tries again. A twin index (a rebuild's staging) shares the slot, so the model loads once for both.
 */
export class ModelSlot {
  private loading: Promise<Embedder> | null = null;

  constructor(private readonly hooks: Pick<CodeIndexHooks, 'onNotice' | 'sharedModel' | 'wrapModel'>) {}

  get(spec: string): Promise<Embedder> {
    if (!this.loading) {
      const loading = (this.hooks.sharedModel?.(spec) ?? loadEmbedder(spec, { onNotice: this.hooks.onNotice })).then((m) => this.hooks.wrapModel?.(m) ?? m);
      loading.catch(() => {
        if (this.loading === loading) this.loading = null;
      });
      this.loading = loading;
    }
    return this.loading;
  }

  /** Closes the model unless the caller's pool owns it. */
  async close(): Promise<void> {
    if (this.loading && !this.hooks.sharedModel) await (await this.loading.catch(() => null))?.close();
  }
}
