/**
 * Converts a TensorFlow.js graph model (model.json + weight shards) into an ONNX model, op by op,
 * written with onnx-proto. It covers every op the Universal Sentence Encoder lite graph uses; an
 * op (or an attribute value) outside that set stops the conversion with the node's name, so a
 * different graph is refused rather than approximated.
 *
 * Choices that keep the ONNX graph numerically the TF graph:
 * - TF int32 tensors become ONNX int64 throughout, because ONNX wants int64 for shapes, axes and
 *   indices (Reshape, Slice, Unsqueeze, ScatterND); casts to int32 therefore cast to int64.
 * - ScatterNd sums updates that share an index in TF, so it maps to ScatterND with reduction
 *   "add" over zeros (opset 16+), not the plain ScatterND whose duplicates are undefined.
 * - A 1x1, stride-1 Conv2D (how the graph writes its q/k/v and output projections) is a matrix
 *   product over the channel axis, so it becomes MatMul with the [in, out] filter: no NHWC/NCHW
 *   transposes on the hot path. Other VALID convolutions go through Conv between transposes.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
type NodeProto = InstanceType<typeof onnx.NodeProto>;
type TensorProto = InstanceType<typeof onnx.TensorProto>;
type ValueInfoProto = InstanceType<typeof onnx.ValueInfoProto>;
const DT = onnx.TensorProto.DataType;
const ATTR = onnx.AttributeProto.AttributeType;

/** Bumped whenever the conversion's output would change (part of the cache key). */
export const CONVERTER_VERSION = 4;

/** Opset 17: ScatterND's reduction attribute (16+), Reduce* ops other than ReduceSum still take axes as an attribute (until 18). */
const OPSET = 17;
const INT64_MAX = 9223372036854775807n;

interface TfAttr {
  i?: string;
  b?: boolean;
  f?: number;
  s?: number[] | string;
  type?: number;
  list?: { i?: string[] };
  shape?: { dim?: { size: string }[]; unknownRank?: boolean };
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
  dtype: string;
  quantization?: unknown;
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

/** What a conversion produced. */
export interface ConvertedModel {
  /** The serialised ONNX ModelProto. */
  bytes: Uint8Array;
  /** Graph input names, in model.json order (the TF placeholders). */
  inputs: string[];
  /** Graph output names. */
  outputs: string[];
  /** How many ONNX nodes the graph has after dead nodes are dropped. */
  nodeCount: number;
}

/** Options of a conversion. */
export interface ConvertOptions {
  /**
   * ONNX output name -> TF tensor that feeds it. Default: one output named after the last node
   * of the graph that nothing else reads.
   */
  outputs?: Record<string, string>;
}

/** The conversion's own failure: names the node and what about it is not supported. */
export class ConversionError extends Error {
  constructor(message: string) {
    super(`tfjs-to-onnx: ${message}`);
    this.name = 'ConversionError';
  }
}

/** TF DataType enum -> ONNX element type (int32 widened to int64). */
function onnxType(tfType: number | undefined, where: string): number {
  switch (tfType) {
    case 1:
      return DT.FLOAT;
    case 3:
    case 9:
      return DT.INT64;
    case 10:
      return DT.BOOL;
    default:
      throw new ConversionError(`${where}: TF dtype ${tfType} is not supported`);
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

/** model.json stores string attributes as byte arrays (or base64 strings in some exporters). */
function attrString(n: TfNode, key: string): string {
  const s = n.attr?.[key]?.s;
  if (s === undefined) return '';
  if (typeof s === 'string') return Buffer.from(s, 'base64').toString('utf8');
  return String.fromCharCode(...s);
}

/** Tensor reference in TF ("name", "name:0", "name:1") -> the ONNX value name used here. */
function ref(input: string): string {
  return input.endsWith(':0') ? input.slice(0, -2) : input;
}

function int64Tensor(name: string, values: readonly (number | bigint)[], dims?: number[]): TensorProto {
  const data = BigInt64Array.from(values, (v) => BigInt(v));
  return onnx.TensorProto.create({ name, dims: dims ?? [data.length], dataType: DT.INT64, rawData: new Uint8Array(data.buffer) });
}

function toTensor(name: string, c: ConstValue): TensorProto {
  const dataType = c.dtype === 'float32' ? DT.FLOAT : c.dtype === 'int64' ? DT.INT64 : DT.BOOL;
  const bytes = new Uint8Array(c.data.buffer, c.data.byteOffset, c.data.byteLength);
  return onnx.TensorProto.create({ name, dims: c.shape, dataType, rawData: bytes.slice() });
}

async function readModelJson(dir: string): Promise<ModelJson> {
  const model = JSON.parse(await readFile(join(dir, 'model.json'), 'utf8')) as Partial<ModelJson>;
  if (!Array.isArray(model.modelTopology?.node) || !Array.isArray(model.weightsManifest)) {
    throw new ConversionError(`${join(dir, 'model.json')} is not a TF.js graph model (no modelTopology.node or weightsManifest)`);
  }
  return model as ModelJson;
}

/** Reads the weight shards and splits them into named constants (little-endian, as TF.js writes them). */
async function readWeights(dir: string, model: ModelJson): Promise<Map<string, ConstValue>> {
  const out = new Map<string, ConstValue>();
  for (const group of model.weightsManifest) {
    const all = Buffer.concat(await Promise.all(group.paths.map((p) => readFile(join(dir, p)))));
    let offset = 0;
    for (const w of group.weights) {
      if (w.quantization !== undefined) throw new ConversionError(`weight ${w.name} is quantised, which is not supported`);
      const count = w.shape.reduce((a, b) => a * b, 1);
      const bytes = w.dtype === 'bool' ? count : count * 4;
      if (offset + bytes > all.length) throw new ConversionError(`the weight shards end before weight ${w.name}`);
      const slice = all.subarray(offset, offset + bytes);
      if (w.dtype === 'float32') {
        const data = new Float32Array(count);
        new Uint8Array(data.buffer).set(slice);
        out.set(w.name, { dtype: 'float32', shape: w.shape, data });
      } else if (w.dtype === 'int32') {
        const view = new Int32Array(count);
        new Uint8Array(view.buffer).set(slice);
        out.set(w.name, { dtype: 'int64', shape: w.shape, data: BigInt64Array.from(view, (v) => BigInt(v)) });
      } else if (w.dtype === 'bool') {
        out.set(w.name, { dtype: 'bool', shape: w.shape, data: Uint8Array.from(slice) });
      } else throw new ConversionError(`weight ${w.name} has dtype ${w.dtype}, which is not supported`);
      offset += bytes;
    }
  }
  return out;
}

/** A hash of everything a conversion reads (model.json and every shard) plus the converter version. */
export async function hashTfjsGraph(dir: string): Promise<string> {
  const model = await readModelJson(dir);
  const h = createHash('sha256');
  h.update(`tfjs-to-onnx ${CONVERTER_VERSION}\n`);
  h.update(await readFile(join(dir, 'model.json')));
  for (const group of model.weightsManifest) for (const p of group.paths) h.update(await readFile(join(dir, p)));
  return h.digest('hex');
}

/**
 * Static rank of TF tensors, where the graph fixes it. Needed where TF ops act on "the last two
 * axes" and ONNX wants a full permutation (BatchMatMul's adj_x / adj_y).
 */
class RankOracle {
  private readonly memo = new Map<string, number | undefined>();
  constructor(
    private readonly byName: Map<string, TfNode>,
    private readonly consts: Map<string, ConstValue>,
  ) {}

  rank(tensor: string): number | undefined {
    const name = ref(tensor).replace(/:\d+$/, '');
    if (this.memo.has(name)) return this.memo.get(name);
    this.memo.set(name, undefined);
    const r = this.compute(name);
    this.memo.set(name, r);
    return r;
  }

  /** Length of a rank-1 tensor, where static. */
  private length(tensor: string): number | undefined {
    const name = ref(tensor).replace(/:\d+$/, '');
    const c = this.consts.get(name);
    if (c) return c.shape.length === 0 ? 1 : c.shape[0];
    const n = this.byName.get(name);
    if (!n) return undefined;
    const ins = (n.input ?? []).filter((i) => !i.startsWith('^'));
    switch (n.op) {
      case 'Shape':
        return this.rank(ins[0]!);
      case 'Pack':
        return ins.length;
      case 'ConcatV2': {
        const parts = ins.slice(0, -1).map((i) => this.length(i));
        return parts.every((p) => p !== undefined) ? parts.reduce<number>((a, b) => a + b!, 0) : undefined;
      }
      case 'Identity':
      case 'Cast':
        return this.length(ins[0]!);
      default:
        return undefined;
    }
  }

  private compute(name: string): number | undefined {
    const c = this.consts.get(name);
    if (c) return c.shape.length;
    const n = this.byName.get(name);
    if (!n) return undefined;
    const ins = (n.input ?? []).filter((i) => !i.startsWith('^'));
    const r = (i: number): number | undefined => this.rank(ins[i]!);
    const plus = (x: number | undefined, d: number): number | undefined => (x === undefined ? undefined : x + d);
    switch (n.op) {
      case 'Placeholder': {
        const shape = n.attr?.['shape']?.shape;
        return shape && !shape.unknownRank ? (shape.dim ?? []).length : undefined;
      }
      case 'Identity':
      case 'Cast':
      case 'Tanh':
      case 'Relu':
      case 'Sin':
      case 'Cos':
      case 'Square':
      case 'Rsqrt':
      case 'LogicalNot':
      case 'Softmax':
      case 'BiasAdd':
      case 'Slice':
      case 'SplitV':
        return r(0);
      case 'Add':
      case 'AddV2':
      case 'Sub':
      case 'Mul':
      case 'RealDiv':
      case 'Maximum':
      case 'Less':
      case 'Greater':
      case 'BatchMatMul':
      case 'BatchMatMulV2': {
        const a = r(0);
        const b = r(1);
        return a === undefined || b === undefined ? undefined : Math.max(a, b);
      }
      case 'Shape':
      case 'Range':
        return 1;
      case 'MatMul':
      case 'Where':
        return 2;
      case 'Conv2D':
        return 4;
      case 'Pack':
      case 'ExpandDims':
        return plus(r(0), 1);
      case 'ConcatV2':
        return r(0);
      case 'Transpose':
        return this.length(ins[1]!);
      case 'Reshape':
        return this.length(ins[1]!);
      case 'ScatterNd':
        return this.length(ins[2]!);
      case 'SparseToDense':
        return this.length(ins[1]!);
      case 'Squeeze': {
        const dims = attrInts(n, 'squeeze_dims');
        return dims.length ? plus(r(0), -dims.length) : undefined;
      }
      case 'GatherV2': {
        const a = r(0);
        const b = r(1);
        return a === undefined || b === undefined ? undefined : a + b - 1;
      }
      case 'Mean':
      case 'Max':
      case 'Prod':
      case 'Sum': {
        if (attrBool(n, 'keep_dims')) return r(0);
        const axes = this.consts.get(ref(ins[1]!));
        return axes ? plus(r(0), -(axes.shape.length === 0 ? 1 : axes.shape[0]!)) : undefined;
      }
      case 'StridedSlice': {
        let shrink = attrInt(n, 'shrink_axis_mask');
        let bits = 0;
        for (; shrink; shrink >>= 1) bits += shrink & 1;
        return plus(r(0), -bits);
      }
      default:
        return undefined;
    }
  }
}

/** Builds the ONNX graph node by node. */
class GraphBuilder {
  readonly nodes: NodeProto[] = [];
  readonly initializers: TensorProto[] = [];
  readonly inputs: ValueInfoProto[] = [];
  private counter = 0;

  tmp(base: string): string {
    return `${base}__${this.counter++}`;
  }

  init(t: TensorProto): string {
    this.initializers.push(t);
    return t.name;
  }

  ints(values: readonly (number | bigint)[], base = 'const'): string {
    return this.init(int64Tensor(this.tmp(base), values));
  }

  scalar(value: number | bigint, base = 'const'): string {
    return this.init(int64Tensor(this.tmp(base), [value], []));
  }

  add(op: string, ins: string[], outs: string[], attrs: Record<string, number | number[] | string> = {}): void {
    const attribute = Object.entries(attrs).map(([name, v]) =>
      Array.isArray(v)
        ? onnx.AttributeProto.create({ name, type: ATTR.INTS, ints: v })
        : typeof v === 'string'
          ? onnx.AttributeProto.create({ name, type: ATTR.STRING, s: new TextEncoder().encode(v) })
          : onnx.AttributeProto.create({ name, type: ATTR.INT, i: v }),
    );
    this.nodes.push(onnx.NodeProto.create({ opType: op, input: ins, output: outs, name: outs[0]!, attribute }));
  }

  /** Keeps only nodes and initializers that the outputs depend on. */
  prune(outputs: string[]): { nodes: NodeProto[]; initializers: TensorProto[] } {
    const producer = new Map<string, NodeProto>();
    for (const nd of this.nodes) for (const o of nd.output) producer.set(o, nd);
    const live = new Set<NodeProto>();
    const needed = new Set<string>();
    const stack = [...outputs];
    while (stack.length) {
      const v = stack.pop()!;
      if (needed.has(v)) continue;
      needed.add(v);
      const nd = producer.get(v);
      if (nd && !live.has(nd)) {
        live.add(nd);
        stack.push(...nd.input.filter((i) => i !== ''));
      }
    }
    return { nodes: this.nodes.filter((nd) => live.has(nd)), initializers: this.initializers.filter((t) => needed.has(t.name)) };
  }
}

/**
 * Converts the TF.js graph in `dir` (model.json + shards). Throws ConversionError naming the
 * first node it cannot convert exactly.
 */
export async function convertTfjsGraph(dir: string, opts: ConvertOptions = {}): Promise<ConvertedModel> {
  const model = await readModelJson(dir);
  const consts = await readWeights(dir, model);
  const tfNodes = model.modelTopology.node;
  const byName = new Map(tfNodes.map((n) => [n.name, n]));
  const ranks = new RankOracle(byName, consts);
  const g = new GraphBuilder();

  const constOf = (input: string, where: string): ConstValue => {
    const c = consts.get(ref(input));
    if (!c) throw new ConversionError(`${where}: input ${input} must be a constant`);
    return c;
  };
  const constInts = (input: string, where: string): number[] => {
    const c = constOf(input, where);
    if (c.dtype !== 'int64') throw new ConversionError(`${where}: input ${input} must be an integer constant`);
    return Array.from(c.data as BigInt64Array, Number);
  };
  const rankOf = (input: string, where: string): number => {
    const r = ranks.rank(input);
    if (r === undefined) throw new ConversionError(`${where}: the rank of ${input} is not static`);
    return r;
  };
  const swapLastTwo = (rank: number): number[] => [...Array.from({ length: rank - 2 }, (_, i) => i), rank - 1, rank - 2];
  const read = new Set<string>();

  for (const n of tfNodes) {
    const ins = (n.input ?? []).filter((i) => !i.startsWith('^')).map(ref);
    for (const i of ins) read.add(i.replace(/:\d+$/, ''));
    const out = n.name;
    const where = `${n.op} ${n.name}`;
    switch (n.op) {
      case 'Const': {
        const c = consts.get(n.name);
        if (!c) throw new ConversionError(`${where}: constant has no weight in the manifest`);
        g.init(toTensor(n.name, c));
        break;
      }
      case 'Placeholder': {
        const shape = n.attr?.['shape']?.shape;
        const dims = shape?.dim ?? [];
        g.inputs.push(
          onnx.ValueInfoProto.create({
            name: n.name,
            type: {
              tensorType: {
                elemType: onnxType(n.attr?.['dtype']?.type, where),
                shape: { dim: dims.map((d, i) => (Number(d.size) < 0 ? { dimParam: `${n.name}_${i}` } : { dimValue: Number(d.size) })) },
              },
            },
          }),
        );
        break;
      }
      case 'Identity':
        g.add('Identity', [ins[0]!], [out]);
        break;
      case 'Add':
      case 'AddV2':
        g.add('Add', [ins[0]!, ins[1]!], [out]);
        break;
      case 'BiasAdd':
        if (attrString(n, 'data_format') && attrString(n, 'data_format') !== 'NHWC') throw new ConversionError(`${where}: only NHWC BiasAdd is supported`);
        g.add('Add', [ins[0]!, ins[1]!], [out]);
        break;
      case 'Sub':
        g.add('Sub', [ins[0]!, ins[1]!], [out]);
        break;
      case 'Mul':
        g.add('Mul', [ins[0]!, ins[1]!], [out]);
        break;
      case 'RealDiv':
        g.add('Div', [ins[0]!, ins[1]!], [out]);
        break;
      case 'Maximum':
        g.add('Max', [ins[0]!, ins[1]!], [out]);
        break;
      case 'Less':
        g.add('Less', [ins[0]!, ins[1]!], [out]);
        break;
      case 'Greater':
        g.add('Greater', [ins[0]!, ins[1]!], [out]);
        break;
      case 'LogicalNot':
        g.add('Not', [ins[0]!], [out]);
        break;
      case 'Square':
        g.add('Mul', [ins[0]!, ins[0]!], [out]);
        break;
      case 'Rsqrt': {
        const s = g.tmp(out);
        g.add('Sqrt', [ins[0]!], [s]);
        g.add('Reciprocal', [s], [out]);
        break;
      }
      case 'Sin':
      case 'Cos':
      case 'Tanh':
      case 'Relu':
        g.add(n.op, [ins[0]!], [out]);
        break;
      case 'Softmax':
        g.add('Softmax', [ins[0]!], [out], { axis: -1 });
        break;
      case 'Cast':
        g.add('Cast', [ins[0]!], [out], { to: onnxType(n.attr?.['DstT']?.type, where) });
        break;
      case 'Shape':
        g.add('Shape', [ins[0]!], [out]);
        break;
      case 'Reshape':
        g.add('Reshape', [ins[0]!, ins[1]!], [out]);
        break;
      case 'Transpose':
        g.add('Transpose', [ins[0]!], [out], { perm: constInts(ins[1]!, where) });
        break;
      case 'ExpandDims':
        g.add('Unsqueeze', [ins[0]!, g.ints(constInts(ins[1]!, where), 'axes')], [out]);
        break;
      case 'Squeeze': {
        const dims = attrInts(n, 'squeeze_dims');
        g.add('Squeeze', dims.length ? [ins[0]!, g.ints(dims, 'axes')] : [ins[0]!], [out]);
        break;
      }
      case 'ConcatV2': {
        const [axis] = constInts(ins[ins.length - 1]!, where);
        g.add('Concat', ins.slice(0, -1), [out], { axis: axis! });
        break;
      }
      case 'Pack': {
        const axis = attrInt(n, 'axis');
        const parts = ins.map((i) => {
          const u = g.tmp(out);
          g.add('Unsqueeze', [i, g.ints([axis], 'axes')], [u]);
          return u;
        });
        g.add('Concat', parts, [out], { axis });
        break;
      }
      case 'GatherV2': {
        if (attrInt(n, 'batch_dims') !== 0) throw new ConversionError(`${where}: batch_dims is not supported`);
        const [axis] = constInts(ins[2]!, where);
        g.add('Gather', [ins[0]!, ins[1]!], [out], { axis: axis! });
        break;
      }
      case 'GatherNd':
        g.add('GatherND', [ins[0]!, ins[1]!], [out]);
        break;
      case 'Where': {
        if (ins.length !== 1) throw new ConversionError(`${where}: only the one-input (coordinates) form is supported`);
        const nz = g.tmp(out);
        g.add('NonZero', [ins[0]!], [nz]);
        g.add('Transpose', [nz], [out], { perm: [1, 0] });
        break;
      }
      case 'ScatterNd': {
        // (indices, updates, shape): float zeros of `shape` (ScatterND wants updates of the same
        // type, so integer updates fail when the model loads, never silently), duplicates summed
        const zeros = g.tmp(out);
        g.add('ConstantOfShape', [ins[2]!], [zeros]);
        g.add('ScatterND', [zeros, ins[0]!, ins[1]!], [out], { reduction: 'add' });
        break;
      }
      case 'SparseToDense': {
        // (sparse_indices, output_shape, sparse_values, default_value)
        const rank = ranks.rank(ins[0]!);
        if (rank !== 2) throw new ConversionError(`${where}: only rank-2 sparse_indices are supported`);
        if (ranks.rank(ins[2]!) !== 1) throw new ConversionError(`${where}: only rank-1 sparse_values are supported`);
        const dense = g.tmp(out);
        g.add('Expand', [ins[3]!, ins[1]!], [dense]);
        g.add('ScatterND', [dense, ins[0]!, ins[2]!], [out]);
        break;
      }
      case 'Mean':
      case 'Max':
      case 'Prod':
      case 'Sum': {
        const axes = constInts(ins[1]!, where);
        const keepdims = attrBool(n, 'keep_dims') ? 1 : 0;
        // TF reduces nothing over an empty axis list; ONNX would reduce everything
        if (axes.length === 0) g.add('Identity', [ins[0]!], [out]);
        else if (n.op === 'Sum') g.add('ReduceSum', [ins[0]!, g.ints(axes, 'axes')], [out], { keepdims });
        else g.add(n.op === 'Mean' ? 'ReduceMean' : n.op === 'Max' ? 'ReduceMax' : 'ReduceProd', [ins[0]!], [out], { axes, keepdims });
        break;
      }
      case 'Range':
        g.add('Range', [ins[0]!, ins[1]!, ins[2]!], [out]);
        break;
      case 'MatMul': {
        const operand = (input: string, transpose: boolean): string => {
          if (!transpose) return input;
          const t = g.tmp(out);
          g.add('Transpose', [input], [t], { perm: [1, 0] });
          return t;
        };
        g.add('MatMul', [operand(ins[0]!, attrBool(n, 'transpose_a')), operand(ins[1]!, attrBool(n, 'transpose_b'))], [out]);
        break;
      }
      case 'BatchMatMul':
      case 'BatchMatMulV2': {
        const operand = (input: string, adjoint: boolean): string => {
          if (!adjoint) return input;
          const t = g.tmp(out);
          g.add('Transpose', [input], [t], { perm: swapLastTwo(rankOf(input, where)) });
          return t;
        };
        g.add('MatMul', [operand(ins[0]!, attrBool(n, 'adj_x')), operand(ins[1]!, attrBool(n, 'adj_y'))], [out]);
        break;
      }
      case 'Conv2D': {
        const format = attrString(n, 'data_format');
        if (format && format !== 'NHWC') throw new ConversionError(`${where}: only NHWC Conv2D is supported`);
        const filter = constOf(ins[1]!, where);
        const [kh, kw, ci, co] = filter.shape as [number, number, number, number];
        const strides = attrInts(n, 'strides');
        const dil = attrInts(n, 'dilations');
        const sh = strides[1] ?? 1;
        const sw = strides[2] ?? 1;
        if (kh === 1 && kw === 1 && sh === 1 && sw === 1) {
          // a 1x1 filter is [1, 1, in, out]: the same numbers as an [in, out] matrix
          const w = g.init(toTensor(g.tmp(`${out}_w`), { dtype: 'float32', shape: [ci, co], data: filter.data }));
          g.add('MatMul', [ins[0]!, w], [out]);
          break;
        }
        const padding = attrString(n, 'padding');
        if (padding !== 'VALID') throw new ConversionError(`${where}: padding ${padding} with a ${kh}x${kw} filter is not supported`);
        const src = filter.data as Float32Array;
        const oihw = new Float32Array(src.length);
        for (let h = 0; h < kh; h++)
          for (let x = 0; x < kw; x++)
            for (let i = 0; i < ci; i++) for (let o = 0; o < co; o++) oihw[((o * ci + i) * kh + h) * kw + x] = src[((h * kw + x) * ci + i) * co + o]!;
        const w = g.init(toTensor(g.tmp(`${out}_oihw`), { dtype: 'float32', shape: [co, ci, kh, kw], data: oihw }));
        const nchw = g.tmp(out);
        const conv = g.tmp(out);
        g.add('Transpose', [ins[0]!], [nchw], { perm: [0, 3, 1, 2] });
        g.add('Conv', [nchw, w], [conv], { strides: [sh, sw], dilations: [dil[1] ?? 1, dil[2] ?? 1], kernel_shape: [kh, kw] });
        g.add('Transpose', [conv], [out], { perm: [0, 2, 3, 1] });
        break;
      }
      case 'SplitV': {
        const [axis] = constInts(ins[2]!, where);
        const sizes = constInts(ins[1]!, where);
        if (sizes.some((s) => s < 0)) throw new ConversionError(`${where}: an inferred (-1) split size is not supported`);
        g.add('Split', [ins[0]!, g.ints(sizes, 'split')], sizes.map((_, k) => (k === 0 ? out : `${out}:${k}`)), { axis: axis! });
        break;
      }
      case 'Slice': {
        // Slice(x, begin, size): a size of -1 means "to the end"
        const ends = g.tmp(out);
        const sum = g.tmp(out);
        const isAll = g.tmp(out);
        g.add('Add', [ins[1]!, ins[2]!], [sum]);
        g.add('Equal', [ins[2]!, g.scalar(-1)], [isAll]);
        g.add('Where', [isAll, g.scalar(INT64_MAX), sum], [ends]);
        g.add('Slice', [ins[0]!, ins[1]!, ends], [out]);
        break;
      }
      case 'StridedSlice': {
        if (attrInt(n, 'ellipsis_mask') || attrInt(n, 'new_axis_mask')) throw new ConversionError(`${where}: ellipsis and new-axis masks are not supported`);
        const begin = constInts(ins[1]!, where);
        const end = constInts(ins[2]!, where);
        const strides = constInts(ins[3]!, where);
        const beginMask = attrInt(n, 'begin_mask');
        const endMask = attrInt(n, 'end_mask');
        const shrink = attrInt(n, 'shrink_axis_mask');
        const starts: bigint[] = [];
        const ends: bigint[] = [];
        const steps: number[] = [];
        const squeeze: number[] = [];
        begin.forEach((b, i) => {
          const step = strides[i] ?? 1;
          if (step === 0) throw new ConversionError(`${where}: a zero stride is invalid`);
          const bit = 1 << i;
          let s = BigInt(b);
          let e = BigInt(end[i]!);
          if (beginMask & bit) s = step > 0 ? 0n : INT64_MAX;
          if (endMask & bit) e = step > 0 ? INT64_MAX : -INT64_MAX - 1n;
          if (shrink & bit) {
            // one element at `begin`; -1 needs an open end because -1 + 1 = 0 would select nothing
            s = BigInt(b);
            e = s === -1n ? INT64_MAX : s + 1n;
            squeeze.push(i);
          }
          starts.push(s);
          ends.push(e);
          steps.push(shrink & bit ? 1 : step);
        });
        const target = squeeze.length ? g.tmp(out) : out;
        g.add('Slice', [ins[0]!, g.ints(starts, 'starts'), g.ints(ends, 'ends'), g.ints(begin.map((_, i) => i), 'axes'), g.ints(steps, 'steps')], [target]);
        if (squeeze.length) g.add('Squeeze', [target, g.ints(squeeze, 'axes')], [out]);
        break;
      }
      default:
        throw new ConversionError(`${where}: op ${n.op} is not supported`);
    }
  }

  let outputs = opts.outputs;
  if (!outputs) {
    const last = tfNodes.filter((n) => !read.has(n.name) && n.op !== 'Const' && n.op !== 'Placeholder').pop();
    if (!last) throw new ConversionError('the graph has no output');
    outputs = { [last.name]: last.name };
  }
  const outputNames = Object.keys(outputs);
  for (const [name, tensor] of Object.entries(outputs)) {
    if (!byName.has(ref(tensor).replace(/:\d+$/, ''))) throw new ConversionError(`output ${name}: the graph has no tensor ${tensor}`);
    if (name !== ref(tensor)) g.add('Identity', [ref(tensor)], [name]);
  }
  const { nodes, initializers } = g.prune(outputNames);
  const graph = onnx.GraphProto.create({
    name: 'tfjs-graph',
    node: nodes,
    initializer: initializers,
    input: g.inputs,
    output: outputNames.map((name) => onnx.ValueInfoProto.create({ name, type: { tensorType: { elemType: DT.FLOAT } } })),
  });
  const proto = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: OPSET }],
    producerName: 'warden-tfjs-to-onnx',
    producerVersion: String(CONVERTER_VERSION),
    graph,
  });
  return { bytes: onnx.ModelProto.encode(proto).finish(), inputs: g.inputs.map((i) => i.name), outputs: outputNames, nodeCount: nodes.length };
}
