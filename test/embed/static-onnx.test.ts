import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import { encodeStaticLookupModel, extractStaticLookup } from '../../src/embed/models/static-onnx.js';

const { onnx } = createRequire(import.meta.url)('onnx-proto') as typeof import('onnx-proto');

const lookup = { vocabSize: 5, dim: 3, matrix: Float32Array.from({ length: 15 }, (_, i) => i / 7 - 1) };

/** Re-encodes `model.onnx` bytes after editing the decoded graph. */
function editGraph(bytes: Uint8Array, edit: (graph: InstanceType<typeof onnx.GraphProto>) => void): Uint8Array {
  const model = onnx.ModelProto.decode(bytes);
  edit(model.graph as InstanceType<typeof onnx.GraphProto>);
  return onnx.ModelProto.encode(model).finish();
}

describe('recognising static token-lookup ONNX graphs', () => {
  const bytes = encodeStaticLookupModel(lookup, 'test');

  test('the graph ocrag writes round-trips to the same table', () => {
    const found = extractStaticLookup(bytes);
    assert.ok(found);
    assert.equal(found.vocabSize, 5);
    assert.equal(found.dim, 3);
    assert.deepEqual(found.matrix, lookup.matrix);
  });

  test('a bare Gather (no mask multiply) is a lookup too', () => {
    const bare = editGraph(bytes, (g) => {
      g.node = g.node.filter((n) => n.opType === 'Gather');
      g.node[0].output = ['last_hidden_state'];
    });
    assert.ok(extractStaticLookup(bare));
  });

  test('any extra computation disqualifies it', () => {
    const withRelu = editGraph(bytes, (g) => {
      const mul = g.node.find((n) => n.opType === 'Mul')!;
      mul.output = ['product'];
      g.node.push(onnx.NodeProto.create({ opType: 'Relu', input: ['product'], output: ['last_hidden_state'] }));
    });
    assert.equal(extractStaticLookup(withRelu), undefined);
    const unusedNode = editGraph(bytes, (g) => {
      g.node.push(onnx.NodeProto.create({ opType: 'Relu', input: ['token_vectors'], output: ['elsewhere'] }));
    });
    assert.equal(extractStaticLookup(unusedNode), undefined);
  });

  test('a lookup on something other than input_ids, or of the wrong output, is not static', () => {
    const wrongIndices = editGraph(bytes, (g) => {
      g.node.find((n) => n.opType === 'Gather')!.input = ['embeddings', 'attention_mask'];
    });
    assert.equal(extractStaticLookup(wrongIndices), undefined);
    const wrongOutput = editGraph(bytes, (g) => {
      g.output[0].name = 'logits';
    });
    assert.equal(extractStaticLookup(wrongOutput), undefined);
  });

  test('bytes that are not an ONNX model are simply not static', () => {
    assert.equal(extractStaticLookup(new TextEncoder().encode('definitely not protobuf')), undefined);
  });
});
