import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ort from 'onnxruntime-node';
import { convertTfjsGraph, hashTfjsGraph } from '../../../electron/engine/adapters/embed/index.js';

/** A TF.js graph model written the way the TF.js converter writes one: model.json plus a little-endian shard. */
interface Weight {
  name: string;
  shape: number[];
  dtype: 'float32' | 'int32';
  values: number[];
}
type Node = { name: string; op: string; input?: string[]; attr?: Record<string, unknown> };

function writeGraph(dir: string, nodes: Node[], weights: Weight[]): void {
  const parts = weights.map((w) => Buffer.from((w.dtype === 'float32' ? Float32Array.from(w.values) : Int32Array.from(w.values)).buffer));
  writeFileSync(join(dir, 'w.bin'), Buffer.concat(parts));
  const consts: Node[] = weights.map((w) => ({ name: w.name, op: 'Const', attr: { dtype: { type: w.dtype === 'float32' ? 1 : 3 } } }));
  const model = {
    modelTopology: { node: [...consts, ...nodes] },
    weightsManifest: [{ paths: ['w.bin'], weights: weights.map(({ name, shape, dtype }) => ({ name, shape, dtype })) }],
  };
  writeFileSync(join(dir, 'model.json'), JSON.stringify(model));
}

const placeholder = (name: string, type: number, dims: number[]): Node => ({
  name,
  op: 'Placeholder',
  attr: { dtype: { type }, shape: { shape: { dim: dims.map((d) => ({ size: String(d) })) } } },
});

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'warden-tfjs-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the TF.js -> ONNX converter', () => {
  it('keeps TF semantics where ONNX differs: summed scatter duplicates, adjoint batch matmul, 1x1 conv, shrinking slices', async () => {
    writeGraph(
      dir,
      [
        placeholder('x', 1, [-1, 3]),
        placeholder('rows', 3, [-1, 1]),
        placeholder('a', 1, [2, 2, 3]),
        { name: 'y', op: 'MatMul', input: ['x', 'w'], attr: { transpose_a: { b: false }, transpose_b: { b: false } } },
        { name: 'scattered', op: 'ScatterNd', input: ['rows', 'y', 'shape'] },
        { name: 'gram', op: 'BatchMatMul', input: ['a', 'a'], attr: { adj_x: { b: false }, adj_y: { b: true } } },
        { name: 'a4', op: 'ExpandDims', input: ['a', 'axis2'] },
        { name: 'conv', op: 'Conv2D', input: ['a4', 'filter'], attr: { padding: { s: [86, 65, 76, 73, 68] }, strides: { list: { i: ['1', '1', '1', '1'] } }, data_format: { s: [78, 72, 87, 67] } } },
        { name: 'last', op: 'StridedSlice', input: ['x', 'begin', 'end', 'strides'], attr: { begin_mask: { i: '1' }, end_mask: { i: '1' }, shrink_axis_mask: { i: '2' } } },
      ],
      [
        { name: 'w', shape: [3, 2], dtype: 'float32', values: [1, 2, 3, 4, 5, 6] },
        { name: 'shape', shape: [2], dtype: 'int32', values: [3, 2] },
        { name: 'axis2', shape: [], dtype: 'int32', values: [2] },
        { name: 'filter', shape: [1, 1, 3, 2], dtype: 'float32', values: [1, 0, 0, 1, 1, 1] },
        { name: 'begin', shape: [2], dtype: 'int32', values: [0, -1] },
        { name: 'end', shape: [2], dtype: 'int32', values: [0, 0] },
        { name: 'strides', shape: [2], dtype: 'int32', values: [1, 1] },
      ],
    );
    const { bytes, inputs, outputs } = await convertTfjsGraph(dir, { outputs: { scattered: 'scattered', gram: 'gram', conv: 'conv', last: 'last' } });
    expect(inputs).toEqual(['x', 'rows', 'a']);
    expect(outputs).toEqual(['scattered', 'gram', 'conv', 'last']);
    const session = await ort.InferenceSession.create(bytes, { logSeverityLevel: 3 });
    const a = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    const out = await session.run({
      x: new ort.Tensor('float32', Float32Array.from([1, 0, 0, 0, 1, 0, 1, 1, 1]), [3, 3]),
      rows: new ort.Tensor('int64', BigInt64Array.from([2n, 0n, 2n]), [3, 1]),
      a: new ort.Tensor('float32', Float32Array.from(a), [2, 2, 3]),
    });
    // y = [[1,2],[3,4],[9,12]]; rows 2 and 2 collide and add up, row 1 stays zero
    expect(Array.from(out['scattered']!.data as Float32Array)).toEqual([3, 4, 0, 0, 10, 14]);
    // a @ a^T for each of the two 2x3 matrices
    expect(Array.from(out['gram']!.data as Float32Array)).toEqual([14, 32, 32, 77, 194, 266, 266, 365]);
    // the 1x1 filter maps channels (c0, c1, c2) to (c0 + c2, c1 + c2)
    expect(out['conv']!.dims).toEqual([2, 2, 1, 2]);
    expect(Array.from(out['conv']!.data as Float32Array)).toEqual([4, 5, 10, 11, 16, 17, 22, 23]);
    // x[:, -1]
    expect(Array.from(out['last']!.data as Float32Array)).toEqual([0, 0, 1]);
    await session.release();
  });

  it('refuses an op it does not map, naming the node', async () => {
    writeGraph(dir, [placeholder('x', 1, [-1]), { name: 'odd/node', op: 'Erf', input: ['x'] }], []);
    await expect(convertTfjsGraph(dir)).rejects.toThrow(/Erf odd\/node: op Erf is not supported/);
  });

  it('refuses shards shorter than the manifest says', async () => {
    writeGraph(dir, [placeholder('x', 1, [-1])], [{ name: 'w', shape: [4], dtype: 'float32', values: [1, 2] }]);
    writeFileSync(join(dir, 'model.json'), JSON.stringify({ modelTopology: { node: [] }, weightsManifest: [{ paths: ['w.bin'], weights: [{ name: 'w', shape: [4], dtype: 'float32' }] }] }));
    await expect(convertTfjsGraph(dir)).rejects.toThrow(/end before weight w/);
  });

  it('hashes the weights, so changed weights give another cache key', async () => {
    const nodes = [placeholder('x', 1, [-1, 3]), { name: 'y', op: 'MatMul', input: ['x', 'w'] }];
    writeGraph(dir, nodes, [{ name: 'w', shape: [3, 1], dtype: 'float32', values: [1, 2, 3] }]);
    const before = await hashTfjsGraph(dir);
    writeGraph(dir, nodes, [{ name: 'w', shape: [3, 1], dtype: 'float32', values: [1, 2, 4] }]);
    expect(await hashTfjsGraph(dir)).not.toBe(before);
  });
});
