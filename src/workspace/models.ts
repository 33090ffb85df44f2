import { loadEmbedder, type Embedder } from '../embed/index.js';

/**
 * Models kept loaded across workspaces opened one after another (a long-lived host opens a fresh workspace per
 * call, so each sees the settings and HEAD of that moment, as a CLI run would): a model is loaded once per spec.
 */
export class ModelPool {
  private readonly loaded = new Map<string, Promise<Embedder>>();

  constructor(private readonly onNotice?: (message: string) => void) {}

  get(spec: string): Promise<Embedder> {
    let model = this.loaded.get(spec);
    if (!model) {
      model = loadEmbedder(spec, { onNotice: this.onNotice });
      // A failed load (a missing model folder, say) is not kept: the next call tries again.
      model.catch(() => this.loaded.delete(spec));
      this.loaded.set(spec, model);
    }
    return model;
  }

  async close(): Promise<void> {
    const models = [...this.loaded.values()];
    this.loaded.clear();
    for (const model of models) await (await model.catch(() => null))?.close();
  }
}
