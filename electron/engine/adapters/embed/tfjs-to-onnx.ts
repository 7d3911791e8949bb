/**
 * Converts a TensorFlow.js graph model (model.json + weight shards) into an ONNX model, op by op.
 * Written for the Universal Sentence Encoder lite graph: every op that graph uses is mapped, and
 * an op outside that set stops the conversion with its name (no silent approximation).
 *
 * Integer tensors: TF int32 values become ONNX int64 throughout, because ONNX shape inputs
 * (Reshape, Slice, Unsqueeze, ScatterND indices) want int64; casts to int32 are therefore cast
 * to int64. Layouts: Conv2D is NHWC in TF and NCHW in ONNX, so it is wrapped in transposes and
 * its filter (a constant) is transposed once at conversion time.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
type NodeProto = InstanceType<typeof onnx.NodeProto>;
type TensorProto = InstanceType<typeof onnx.TensorProto>;
const DT = onnx.TensorProto.DataType;

/** Bumped whenever the conversion's output would change (part of the cache key). */
export const CONVERTER_VERSION = 3;

interface TfAttr {
  i?: string;
  b?: boolean;
  f?: number;
  s?: number[] | string;
  type?: number;
  list?: { i?: string[]; s?: unknown[] };
}
interface TfNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, TfAttr>;
}
interface WeightSpec {
  name: string;
  shape: number[];
  dtype: 'float32' | 'int32' | 'int64' | 'bool';
}
interface ModelJson {
  modelTopology: { node: TfNode[] };
  weightsManifest: { paths: string[]; weights: WeightSpec[] }[];
}

/** A constant known at conversion time. */
interface ConstValue {
  dtype: 'float32' | 'int64' | 'bool';
  shape: number[];
  data: Float32Array | BigInt64Array | Uint8Array;
}

const INT64_MAX = 9223372036854775807n;

/** TF DataType enum -> ONNX element type (int32 widened to int64). */
function onnxType(tfType: number | undefined): number {
  switch (tfType) {
    case 1:
      return DT.FLOAT;
    case 3:
    case 9:
      return DT.INT64;
    case 10:
      return DT.BOOL;
    default:
      throw new Error(`tfjs-to-onnx: unsupported TF dtype ${tfType}`);
  }
}

function attrInt(n: TfNode, key: string, dflt = 0): number {
  const a = n.attr?.[key];
  return a?.i !== undefined ? Number(a.i) : dflt;
}

function attrBool(n: TfNode, key: string): boolean {
  return n.attr?.[key]?.b === true;
}

function attrInts(n: TfNode, key: string): number[] {
  return (n.attr?.[key]?.list?.i ?? []).map(Number);
}

function attrString(n: TfNode, key: string): string {
  const s = n.attr?.[key]?.s;
  if (s === undefined) return '';
  if (typeof s === 'string') return Buffer.from(s, 'base64').toString('utf8');
  return String.fromCharCode(...s);
}

/** Tensor reference in TF ("name", "name:1") -> the ONNX value name used here. */
function ref(input: string): string {
  return input.endsWith(':0') ? input.slice(0, -2) : input;
}

function int64Tensor(name: string, values: number[] | bigint[], dims?: number[]): TensorProto {
  const data = BigInt64Array.from(values.map((v) => BigInt(v)));
  return onnx.TensorProto.create({ name, dims: dims ?? [data.length], dataType: DT.INT64, rawData: new Uint8Array(data.buffer) });
}

function toTensor(name: string, c: ConstValue): TensorProto {
  const dataType = c.dtype === 'float32' ? DT.FLOAT : c.dtype === 'int64' ? DT.INT64 : DT.BOOL;
  const bytes = new Uint8Array(c.data.buffer, c.data.byteOffset, c.data.byteLength);
  return onnx.TensorProto.create({ name, dims: c.shape, dataType, rawData: bytes.slice() });
}

/** Reads the weight shards and splits them into named constants. */
async function readWeights(dir: string, model: ModelJson): Promise<Map<string, ConstValue>> {
  const out = new Map<string, ConstValue>();
  for (const group of model.weightsManifest) {
    const shards = await Promise.all(group.paths.map((p) => readFile(join(dir, p))));
    const all = Buffer.concat(shards);
    let offset = 0;
    for (const w of group.weights) {
      const count = w.shape.reduce((a, b) => a * b, 1);
      if (w.dtype === 'float32') {
        const data = new Float32Array(count);
        new Uint8Array(data.buffer).set(all.subarray(offset, offset + count * 4));
        out.set(w.name, { dtype: 'float32', shape: w.shape, data });
        offset += count * 4;
      } else if (w.dtype === 'int32') {
        const view = new Int32Array(count);
        new Uint8Array(view.buffer).set(all.subarray(offset, offset + count * 4));
        out.set(w.name, { dtype: 'int64', shape: w.shape, data: BigInt64Array.from(view, (v) => BigInt(v)) });
        offset += count * 4;
      } else if (w.dtype === 'bool') {
        out.set(w.name, { dtype: 'bool', shape: w.shape, data: Uint8Array.from(all.subarray(offset, offset + count)) });
        offset += count;
      } else throw new Error(`tfjs-to-onnx: unsupported weight dtype ${w.dtype} for ${w.name}`);
    }
  }
  return out;
}

/** The result of a conversion. */
export interface ConvertedModel {
  bytes: Uint8Array;
  inputs: string[];
  output: string;
}

/**
 * Converts the TF.js graph in `dir` (model.json + shards). `outputName` is the TF node whose
 * value is the model's output; by default the last node of the graph.
 */
export async function convertTfjsGraph(dir: string, outputName?: string): Promise<ConvertedModel> {
  const model = JSON.parse(await readFile(join(dir, 'model.json'), 'utf8')) as ModelJson;
  const consts = await readWeights(dir, model);
  const nodes: NodeProto[] = [];
  const initializers: TensorProto[] = [];
  const inputs: InstanceType<typeof onnx.ValueInfoProto>[] = [];
  let counter = 0;
  const tmp = (base: string): string => `${base}__${counter++}`;
  const constOf = (input: string): ConstValue => {
    const c = consts.get(ref(input));
    if (!c) throw new Error(`tfjs-to-onnx: ${input} must be a constant here`);
    return c;
  };
  const constInts = (input: string): number[] => Array.from(constOf(input).data as BigInt64Array, Number);
  const addInit = (t: TensorProto): string => {
    initializers.push(t);
    return t.name;
  };
  const add = (op: string, ins: string[], outs: string[], attrs: Record<string, number | number[] | string> = {}): void => {
    const attribute = Object.entries(attrs).map(([name, v]) =>
      Array.isArray(v)
        ? onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: v })
        : typeof v === 'string'
          ? onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.STRING, s: new TextEncoder().encode(v) })
          : onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INT, i: v }),
    );
    nodes.push(onnx.NodeProto.create({ opType: op, input: ins, output: outs, name: outs[0]!, attribute }));
  };
  const axesInput = (axes: number[]): string => addInit(int64Tensor(tmp('axes'), axes));
  const used = new Set<string>();

  for (const n of model.modelTopology.node) {
    const ins = (n.input ?? []).filter((i) => !i.startsWith('^')).map(ref);
    ins.forEach((i) => used.add(i.split(':')[0]!));
    const out = n.name;
    switch (n.op) {
      case 'Const': {
        const c = consts.get(n.name);
        if (!c) throw new Error(`tfjs-to-onnx: constant ${n.name} has no weight`);
        addInit(toTensor(n.name, c));
        break;
      }
      case 'Placeholder': {
        const dims = (n.attr?.['shape'] as unknown as { shape?: { dim?: { size: string }[] } })?.shape?.dim ?? [];
        inputs.push(
          onnx.ValueInfoProto.create({
            name: n.name,
            type: {
              tensorType: {
                elemType: onnxType(n.attr?.['dtype']?.type),
                shape: { dim: dims.map((d, i) => (Number(d.size) < 0 ? { dimParam: `${n.name}_d${i}` } : { dimValue: Number(d.size) })) },
              },
            },
          }),
        );
        break;
      }
      case 'Identity':
        add('Identity', [ins[0]!], [out]);
        break;
      case 'Add':
      case 'AddV2':
      case 'BiasAdd':
        add('Add', [ins[0]!, ins[1]!], [out]);
        break;
      case 'Sub':
        add('Sub', [ins[0]!, ins[1]!], [out]);
        break;
      case 'Mul':
        add('Mul', [ins[0]!, ins[1]!], [out]);
        break;
      case 'RealDiv':
        add('Div', [ins[0]!, ins[1]!], [out]);
        break;
      case 'Maximum':
        add('Max', [ins[0]!, ins[1]!], [out]);
        break;
      case 'Less':
        add('Less', [ins[0]!, ins[1]!], [out]);
        break;
      case 'Greater':
        add('Greater', [ins[0]!, ins[1]!], [out]);
        break;
      case 'LogicalNot':
        add('Not', [ins[0]!], [out]);
        break;
      case 'Square':
        add('Mul', [ins[0]!, ins[0]!], [out]);
        break;
      case 'Rsqrt': {
        const s = tmp(out);
        add('Sqrt', [ins[0]!], [s]);
        add('Reciprocal', [s], [out]);
        break;
      }
      case 'Sin':
      case 'Cos':
      case 'Tanh':
      case 'Relu':
        add(n.op, [ins[0]!], [out]);
        break;
      case 'Softmax':
        add('Softmax', [ins[0]!], [out], { axis: -1 });
        break;
      case 'Cast':
        add('Cast', [ins[0]!], [out], { to: onnxType(n.attr?.['DstT']?.type) });
        break;
      case 'Shape':
        add('Shape', [ins[0]!], [out]);
        break;
      case 'Reshape':
        add('Reshape', [ins[0]!, ins[1]!], [out]);
        break;
      case 'Transpose':
        add('Transpose', [ins[0]!], [out], { perm: constInts(ins[1]!) });
        break;
      case 'ExpandDims':
        add('Unsqueeze', [ins[0]!, axesInput(constInts(ins[1]!))], [out]);
        break;
      case 'Squeeze':
        add('Squeeze', [ins[0]!, axesInput(attrInts(n, 'squeeze_dims'))], [out]);
        break;
      case 'ConcatV2': {
        const axis = constInts(ins[ins.length - 1]!)[0]!;
        add('Concat', ins.slice(0, -1), [out], { axis });
        break;
      }
      case 'Pack': {
        const axis = attrInt(n, 'axis');
        const parts = ins.map((i) => {
          const u = tmp(out);
          add('Unsqueeze', [i, axesInput([axis])], [u]);
          return u;
        });
        add('Concat', parts, [out], { axis });
        break;
      }
      case 'GatherV2': {
        const axis = constInts(ins[2]!)[0]!;
        add('Gather', [ins[0]!, ins[1]!], [out], { axis });
        break;
      }
      case 'GatherNd':
        add('GatherND', [ins[0]!, ins[1]!], [out]);
        break;
      case 'Where': {
        const nz = tmp(out);
        add('NonZero', [ins[0]!], [nz]);
        add('Transpose', [nz], [out], { perm: [1, 0] });
        break;
      }
      case 'ScatterNd': {
        const zeros = tmp(out);
        add('ConstantOfShape', [ins[2]!], [zeros]);
        // ConstantOfShape defaults to float32 zeros, which is what the graph scatters (activations)
        add('ScatterND', [zeros, ins[0]!, ins[1]!], [out]);
        break;
      }
      case 'SparseToDense': {
        // (sparse_indices, output_shape, sparse_values, default_value)
        const dense = tmp(out);
        add('Expand', [ins[3]!, ins[1]!], [dense]);
        add('ScatterND', [dense, ins[0]!, ins[2]!], [out]);
        break;
      }
      case 'Mean':
      case 'Max':
      case 'Prod':
      case 'Sum': {
        const axes = constInts(ins[1]!);
        const keepdims = attrBool(n, 'keep_dims') ? 1 : 0;
        if (n.op === 'Sum') add('ReduceSum', [ins[0]!, axesInput(axes)], [out], { keepdims });
        else add(n.op === 'Mean' ? 'ReduceMean' : n.op === 'Max' ? 'ReduceMax' : 'ReduceProd', [ins[0]!], [out], { axes, keepdims });
        break;
      }
      case 'Range':
        add('Range', [ins[0]!, ins[1]!, ins[2]!], [out]);
        break;
      case 'MatMul':
      case 'BatchMatMul':
      case 'BatchMatMulV2': {
        const ta = n.op === 'MatMul' ? attrBool(n, 'transpose_a') : attrBool(n, 'adj_x');
        const tb = n.op === 'MatMul' ? attrBool(n, 'transpose_b') : attrBool(n, 'adj_y');
        const rank = n.op === 'MatMul' ? 2 : 4;
        const perm = [...Array.from({ length: rank - 2 }, (_, i) => i), rank - 1, rank - 2];
        let a = ins[0]!;
        let b = ins[1]!;
        if (ta) add('Transpose', [a], [(a = tmp(out))], { perm });
        if (tb) add('Transpose', [ins[1]!], [(b = tmp(out))], { perm });
        add('MatMul', [a, b], [out]);
        break;
      }
      case 'Conv2D': {
        if (attrString(n, 'data_format') && attrString(n, 'data_format') !== 'NHWC') throw new Error(`tfjs-to-onnx: ${n.name}: only NHWC Conv2D is supported`);
        const filter = constOf(ins[1]!);
        const [kh, kw, ci, co] = filter.shape as [number, number, number, number];
        const src = filter.data as Float32Array;
        const oihw = new Float32Array(src.length);
        for (let h = 0; h < kh; h++)
          for (let w = 0; w < kw; w++)
            for (let i = 0; i < ci; i++) for (let o = 0; o < co; o++) oihw[((o * ci + i) * kh + h) * kw + w] = src[((h * kw + w) * ci + i) * co + o]!;
        const fname = addInit(toTensor(tmp(`${out}_oihw`), { dtype: 'float32', shape: [co, ci, kh, kw], data: oihw }));
        const padding = attrString(n, 'padding');
        if (padding !== 'VALID' && (kh !== 1 || kw !== 1)) throw new Error(`tfjs-to-onnx: ${n.name}: padding ${padding} with a ${kh}x${kw} kernel is not supported`);
        const strides = attrInts(n, 'strides');
        const dil = attrInts(n, 'dilations');
        const nchw = tmp(out);
        const conv = tmp(out);
        add('Transpose', [ins[0]!], [nchw], { perm: [0, 3, 1, 2] });
        add('Conv', [nchw, fname], [conv], { strides: [strides[1] ?? 1, strides[2] ?? 1], dilations: [dil[1] ?? 1, dil[2] ?? 1], kernel_shape: [kh, kw] });
        add('Transpose', [conv], [out], { perm: [0, 2, 3, 1] });
        break;
      }
      case 'SplitV': {
        const axis = constInts(ins[2]!)[0]!;
        const sizes = constInts(ins[1]!);
        if (sizes.some((s) => s < 0)) throw new Error(`tfjs-to-onnx: ${n.name}: SplitV with an inferred size is not supported`);
        add('Split', [ins[0]!, axesInput(sizes)], sizes.map((_, k) => (k === 0 ? out : `${out}:${k}`)), { axis });
        break;
      }
      case 'Slice': {
        // Slice(x, begin, size): size -1 means "to the end"
        const ends = tmp(out);
        const sum = tmp(out);
        const isAll = tmp(out);
        const minus1 = addInit(int64Tensor(tmp('m1'), [-1], []));
        const big = addInit(int64Tensor(tmp('big'), [INT64_MAX], []));
        add('Add', [ins[1]!, ins[2]!], [sum]);
        add('Equal', [ins[2]!, minus1], [isAll]);
        add('Where', [isAll, big, sum], [ends]);
        add('Slice', [ins[0]!, ins[1]!, ends], [out]);
        break;
      }
      case 'StridedSlice': {
        const begin = constInts(ins[1]!);
        const end = constInts(ins[2]!);
        const strides = constInts(ins[3]!);
        const beginMask = attrInt(n, 'begin_mask');
        const endMask = attrInt(n, 'end_mask');
        const shrink = attrInt(n, 'shrink_axis_mask');
        if (attrInt(n, 'ellipsis_mask') || attrInt(n, 'new_axis_mask')) throw new Error(`tfjs-to-onnx: ${n.name}: ellipsis/new-axis masks are not supported`);
        const starts: bigint[] = [];
        const ends: bigint[] = [];
        const axes: number[] = [];
        const steps: number[] = [];
        const squeeze: number[] = [];
        begin.forEach((b, i) => {
          const step = strides[i] ?? 1;
          const bit = 1 << i;
          let s = BigInt(b);
          let e = BigInt(end[i]!);
          if (beginMask & bit) s = step > 0 ? 0n : -1n;
          if (endMask & bit) e = step > 0 ? INT64_MAX : -INT64_MAX;
          if (shrink & bit) {
            e = s === -1n ? INT64_MAX : s + 1n;
            squeeze.push(i);
          }
          starts.push(s);
          ends.push(e);
          axes.push(i);
          steps.push(step);
        });
        const target = squeeze.length ? tmp(out) : out;
        add(
          'Slice',
          [ins[0]!, addInit(int64Tensor(tmp('starts'), starts)), addInit(int64Tensor(tmp('ends'), ends)), axesInput(axes), addInit(int64Tensor(tmp('steps'), steps))],
          [target],
        );
        if (squeeze.length) add('Squeeze', [target, axesInput(squeeze)], [out]);
        break;
      }
      default:
        throw new Error(`tfjs-to-onnx: op ${n.op} (${n.name}) is not supported`);
    }
  }
  const last = outputName ?? model.modelTopology.node.filter((n) => !used.has(n.name) && n.op !== 'Const').pop()?.name;
  if (!last) throw new Error('tfjs-to-onnx: the graph has no output');
  // constants read only at conversion time (perms, axes, filters before transposing) are dropped
  const referenced = new Set(nodes.flatMap((nd) => nd.input));
  const graph = onnx.GraphProto.create({
    name: 'converted',
    node: nodes,
    initializer: initializers.filter((t) => referenced.has(t.name)),
    input: inputs,
    output: [onnx.ValueInfoProto.create({ name: last, type: { tensorType: { elemType: DT.FLOAT } } })],
  });
  const proto = onnx.ModelProto.create({ irVersion: 7, opsetImport: [{ domain: '', version: 13 }], producerName: 'warden-tfjs-to-onnx', producerVersion: String(CONVERTER_VERSION), graph });
  return { bytes: onnx.ModelProto.encode(proto).finish(), inputs: inputs.map((i) => i.name), output: last };
}
