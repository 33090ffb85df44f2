import { createRequire } from 'node:module';
import type * as OnnxProto from 'onnx-proto';

type Onnx = typeof OnnxProto.onnx;
type TensorProto = OnnxProto.onnx.ITensorProto;

/** Loaded on demand (~60 ms): normal runs read the cached table and never touch protobufs. */
let onnxModule: Onnx | undefined;
function onnx(): Onnx {
  onnxModule ??= (createRequire(import.meta.url)('onnx-proto') as typeof OnnxProto).onnx;
  return onnxModule;
}
interface GraphNode {
  opType: string;
  input: string[];
  output: string[];
  axis: number;
}

// Values of onnx.TensorProto.DataType / AttributeProto.AttributeType, fixed by the ONNX spec.
const FLOAT = 1;
const INT64 = 7;
const INT_ATTRIBUTE = 2;

/** A token-embedding table [vocabSize, dim], row-major. */
export interface StaticLookup {
  vocabSize: number;
  dim: number;
  matrix: Float32Array;
}

/**
 * ONNX graph of a static embedding model in Transformers.js layout:
 * last_hidden_state = Gather(embeddings, input_ids) * Unsqueeze(Cast(attention_mask), -1).
 */
export function encodeStaticLookupModel(lookup: StaticLookup, producerName: string): Uint8Array {
  const { vocabSize, dim, matrix } = lookup;
  const valueInfo = (name: string, elemType: number, dims: Array<string | number>) => ({
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) },
      },
    },
  });
  const graph = {
    name: 'static_token_embeddings',
    initializer: [
      { name: 'embeddings', dataType: FLOAT, dims: [vocabSize, dim], rawData: float32Bytes(matrix) },
      { name: 'last_axis', dataType: INT64, dims: [1], int64Data: [-1] },
    ],
    input: [valueInfo('input_ids', INT64, ['batch', 'sequence']), valueInfo('attention_mask', INT64, ['batch', 'sequence'])],
    output: [valueInfo('last_hidden_state', FLOAT, ['batch', 'sequence', dim])],
    node: [
      { opType: 'Gather', input: ['embeddings', 'input_ids'], output: ['token_vectors'], attribute: [{ name: 'axis', type: INT_ATTRIBUTE, i: 0 }] },
      { opType: 'Cast', input: ['attention_mask'], output: ['mask_float'], attribute: [{ name: 'to', type: INT_ATTRIBUTE, i: FLOAT }] },
      { opType: 'Unsqueeze', input: ['mask_float', 'last_axis'], output: ['mask_3d'] },
      { opType: 'Mul', input: ['token_vectors', 'mask_3d'], output: ['last_hidden_state'] },
    ],
  };
  const model = onnx().ModelProto.create({ irVersion: 8, opsetImport: [{ domain: '', version: 17 }], producerName, graph });
  return onnx().ModelProto.encode(model).finish();
}

function float32Bytes(values: Float32Array): Uint8Array {
  const bytes = new Uint8Array(values.byteLength);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i], true);
  return bytes;
}

/**
 * Returns the embedding table if the graph is a pure lookup: its output is Gather(table, input_ids),
 * optionally multiplied by the attention mask, and no node does anything else. Otherwise undefined.
 */
export function extractStaticLookup(modelBytes: Uint8Array): StaticLookup | undefined {
  let graph: OnnxProto.onnx.IGraphProto | null | undefined;
  try {
    graph = onnx().ModelProto.decode(modelBytes).graph;
  } catch {
    return undefined; // not decodable here; onnxruntime will report what is wrong with it
  }
  if (!graph) return undefined;
  const nodes = (graph.node ?? []).map(toGraphNode);
  const initializers = new Map((graph.initializer ?? []).map((t) => [t.name ?? '', t]));
  const producers = new Map<string, GraphNode>();
  for (const node of nodes) for (const out of node.output) producers.set(out, node);
  const outputNames = (graph.output ?? []).map((o) => o.name);
  const outputName = ['last_hidden_state', 'token_embeddings'].find((n) => outputNames.includes(n));
  if (!outputName) return undefined;

  const visited = new Set<GraphNode>();
  const visit = (name: string): GraphNode | undefined => {
    const node = producers.get(name);
    if (node) visited.add(node);
    return node;
  };
  const tracesToInput = (name: string, input: string): boolean => {
    if (name === input) return true;
    const node = visit(name);
    if (!node || !['Cast', 'Unsqueeze', 'Identity'].includes(node.opType)) return false;
    return tracesToInput(node.input[0], input) && node.input.slice(1).every((extra) => initializers.has(extra));
  };
  const traceTable = (name: string): TensorProto | undefined => {
    const node = visit(name);
    if (!node) return undefined;
    if (node.opType === 'Identity') return traceTable(node.input[0]);
    if (node.opType !== 'Gather' || node.axis !== 0 || !tracesToInput(node.input[1], 'input_ids')) return undefined;
    const table = initializers.get(node.input[0]);
    return table && table.dataType === FLOAT && table.dims?.length === 2 ? table : undefined;
  };

  let table: TensorProto | undefined;
  const top = producers.get(outputName);
  if (top?.opType === 'Mul' && top.input.length === 2) {
    visited.add(top);
    const [a, b] = top.input;
    if (tracesToInput(b, 'attention_mask')) table = traceTable(a);
    else if (tracesToInput(a, 'attention_mask')) table = traceTable(b);
  } else {
    table = traceTable(outputName);
  }
  // Any node we did not walk through computes something else: not a pure lookup.
  if (!table || visited.size !== nodes.length) return undefined;
  return tableToLookup(table);
}

function toGraphNode(node: OnnxProto.onnx.INodeProto): GraphNode {
  const axis = node.attribute?.find((a) => a.name === 'axis');
  return { opType: node.opType ?? '', input: node.input ?? [], output: node.output ?? [], axis: axis ? Number(axis.i) : 0 };
}

function tableToLookup(table: TensorProto): StaticLookup | undefined {
  const [vocabSize, dim] = (table.dims ?? []).map(Number);
  const count = vocabSize * dim;
  const matrix = new Float32Array(count);
  if (table.rawData && table.rawData.length === count * 4) {
    const view = new DataView(table.rawData.buffer, table.rawData.byteOffset, table.rawData.byteLength);
    for (let i = 0; i < count; i++) matrix[i] = view.getFloat32(i * 4, true);
  } else if (table.floatData && table.floatData.length === count) {
    matrix.set(table.floatData);
  } else {
    return undefined; // external data or an unexpected encoding: the generic path handles it
  }
  return { vocabSize, dim, matrix };
}
