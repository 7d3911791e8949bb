import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';
import { createOnnxFileEmbedder, type OnnxEmbedder } from '../../../electron/engine/adapters/embed/index.js';
import { embedderContract } from './embedder-contract.js';

const { onnx } = onnxProto;

/** Six reserved ids, then a few pieces; the model's table gives piece i the row TABLE[i]. */
const VOCAB: [string, number][] = [
  ['<unk>', 0], ['<s>', 0], ['</s>', 0], ['x1', 0], ['x2', 0], ['x3', 0],
  ['\u2581', -3], ['\u2581a', -1], ['b', -2], ['\u2581ab', -1.5], ['a', -2.5],
];
const TABLE = VOCAB.map((_, i) => [1, i, i % 3, 2]);

/**
 * A small real ONNX token encoder in the padded layout (BERT-style inputs): ids [batch, length]
 * look up a table, the attention mask zeroes padding, and the output is one vector per token.
 */
function tokenEncoder(): Uint8Array {
  const tensor = (name: string, dims: number[], values: number[]) =>
    onnx.TensorProto.create({ name, dims, dataType: onnx.TensorProto.DataType.FLOAT, rawData: new Uint8Array(Float32Array.from(values).buffer) });
  const axes = onnx.TensorProto.create({ name: 'axes', dims: [1], dataType: onnx.TensorProto.DataType.INT64, rawData: new Uint8Array(BigInt64Array.from([-1n]).buffer) });
  const io = (name: string, elemType: number, rank: number) =>
    onnx.ValueInfoProto.create({ name, type: { tensorType: { elemType, shape: { dim: Array.from({ length: rank }, (_, i) => ({ dimParam: `d${i}` })) } } } });
  const node = (opType: string, input: string[], output: string, attribute: InstanceType<typeof onnx.AttributeProto>[] = []) =>
    onnx.NodeProto.create({ opType, input, output: [output], name: output, attribute });
  const graph = onnx.GraphProto.create({
    name: 'tiny',
    initializer: [tensor('table', [TABLE.length, 4], TABLE.flat()), axes],
    node: [
      node('Gather', ['table', 'input_ids'], 'looked_up'),
      node('Cast', ['attention_mask'], 'maskf', [onnx.AttributeProto.create({ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: onnx.TensorProto.DataType.FLOAT })]),
      node('Unsqueeze', ['maskf', 'axes'], 'mask3'),
      node('Mul', ['looked_up', 'mask3'], 'token_embeddings'),
    ],
    input: [io('input_ids', onnx.TensorProto.DataType.INT64, 2), io('attention_mask', onnx.TensorProto.DataType.INT64, 2)],
    output: [io('token_embeddings', onnx.TensorProto.DataType.FLOAT, 3)],
  });
  return onnx.ModelProto.encode(onnx.ModelProto.create({ irVersion: 8, opsetImport: [{ domain: '', version: 17 }], graph })).finish();
}

let dir: string;
let embedder: OnnxEmbedder;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'warden-onnx-file-'));
  writeFileSync(join(dir, 'model.onnx'), tokenEncoder());
  writeFileSync(join(dir, 'vocab.json'), JSON.stringify(VOCAB));
  embedder = await createOnnxFileEmbedder({
    modelPath: join(dir, 'model.onnx'),
    vocabPath: join(dir, 'vocab.json'),
    dim: 4,
    input: { kind: 'padded', ids: 'input_ids', mask: 'attention_mask' },
    output: 'token_embeddings',
  });
});

afterAll(async () => {
  await embedder.close();
  rmSync(dir, { recursive: true, force: true });
});

const unitMean = (ids: number[]): number[] => {
  const sum = [0, 0, 0, 0];
  for (const id of ids) TABLE[id]!.forEach((x, k) => (sum[k]! += x));
  const n = Math.hypot(...sum);
  return sum.map((x) => x / n);
};

describe('a local ONNX sentence encoder from files', () => {
  it('tokenizes with the file vocabulary and mean-pools the unpadded tokens of each row', async () => {
    expect(embedder.tokenize('ab')).toEqual([9]);
    expect(embedder.tokenize('a b')).toEqual([7, 6, 8]);
    // one batch: 'ab' is padded to three positions, which must not enter its mean
    const [ab, aSpaceB] = await embedder.embed(['ab', 'a b']);
    ab!.forEach((x, k) => expect(x).toBeCloseTo(unitMean([9])[k]!, 6));
    aSpaceB!.forEach((x, k) => expect(x).toBeCloseTo(unitMean([7, 6, 8])[k]!, 6));
  });

  it('names the model and its bytes in the id', () => {
    expect(embedder.id).toMatch(/^onnx:model\.onnx-[0-9a-f]{16}$/);
  });

  it('reports a missing model file as MODEL_MISSING', async () => {
    await expect(
      createOnnxFileEmbedder({ modelPath: join(dir, 'none.onnx'), vocabPath: join(dir, 'vocab.json'), dim: 4, input: { kind: 'padded', ids: 'input_ids' }, output: 'token_embeddings' }),
    ).rejects.toMatchObject({ code: 'MODEL_MISSING' });
  });

  it('reports an output name the model lacks as MODEL_MISSING', async () => {
    await expect(
      createOnnxFileEmbedder({ modelPath: join(dir, 'model.onnx'), vocabPath: join(dir, 'vocab.json'), dim: 4, input: { kind: 'padded', ids: 'input_ids', mask: 'attention_mask' }, output: 'pooled' }),
    ).rejects.toMatchObject({ code: 'MODEL_MISSING', message: expect.stringContaining('no output pooled') });
  });

  describe('the Embedder contract', () => embedderContract(() => embedder));
});
