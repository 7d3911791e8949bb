/**
 * Weight-only int8 quantization of an ONNX model's matrix products. Every MatMul whose right-hand
 * side is a constant 2-D float matrix becomes onnxruntime's DynamicQuantizeMatMul: the weights are
 * stored as int8 with one symmetric scale per output column, the activations are quantized on the
 * fly. On the USE-lite encoder the products are about two thirds of the run time, and int8 halves
 * the cost of a sentence on two cores while the sentence vectors keep a cosine of about 0.999 (at least 0.995 in the test) with
 * the float model (test/engine/embed/use-lite.test.ts measures it).
 */
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/**
 * Weights use 7 of the 8 bits (|q| <= 63). On x86 without VNNI (AVX2, AVX-512F) onnxruntime
 * multiplies uint8 activations by int8 weights with an instruction that adds pairs of products
 * into 16 bits and saturates; with full-range weights that costs up to ~0.02 cosine on some
 * sentences, with 7-bit weights no pair can overflow, on every CPU (onnxruntime's "reduce_range").
 */
export const WEIGHT_LEVELS = 63;
/** Part of the cached file's name: a change of the scheme makes a new file. */
export const QUANTIZE_VERSION = 'r7';
const DT = onnx.TensorProto.DataType;

/** What the pass did. */
export interface QuantizeResult {
  bytes: Uint8Array;
  /** MatMul nodes rewritten. */
  quantized: number;
  /** MatMul nodes left in float (activations on both sides, e.g. attention scores). */
  kept: number;
}

function floatData(t: onnxProto.onnx.ITensorProto): Float32Array | undefined {
  if (t.rawData && t.rawData.length > 0) {
    const raw = t.rawData;
    return new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
  }
  if (t.floatData && t.floatData.length > 0) return Float32Array.from(t.floatData);
  return undefined;
}

/** Rewrites the model's constant-weight MatMuls as int8 DynamicQuantizeMatMul nodes. */
export function quantizeMatMulWeights(model: Uint8Array): QuantizeResult {
  const m = onnx.ModelProto.decode(model);
  const g = m.graph;
  if (!g) throw new Error('quantize: the model has no graph');
  const inits = new Map((g.initializer ?? []).map((t) => [t.name ?? '', t]));
  const uses = new Map<string, number>();
  for (const node of g.node ?? []) for (const i of node.input ?? []) uses.set(i, (uses.get(i) ?? 0) + 1);
  const added: InstanceType<typeof onnx.TensorProto>[] = [];
  const replaced = new Set<string>();
  let quantized = 0;
  let kept = 0;
  for (const node of g.node ?? []) {
    if (node.opType !== 'MatMul' || (node.domain ?? '') !== '') continue;
    const wName = node.input?.[1] ?? '';
    const w = inits.get(wName);
    const data = w && w.dataType === DT.FLOAT && w.dims?.length === 2 ? floatData(w) : undefined;
    if (!w || !data) {
      kept++;
      continue;
    }
    const K = Number(w.dims![0]);
    const N = Number(w.dims![1]);
    const scales = new Float32Array(N);
    for (let j = 0; j < N; j++) {
      let max = 0;
      for (let i = 0; i < K; i++) max = Math.max(max, Math.abs(data[i * N + j]!));
      scales[j] = max > 0 ? max / WEIGHT_LEVELS : 1;
    }
    const q = new Int8Array(K * N);
    for (let i = 0; i < K; i++) {
      for (let j = 0; j < N; j++) q[i * N + j] = Math.max(-WEIGHT_LEVELS, Math.min(WEIGHT_LEVELS, Math.round(data[i * N + j]! / scales[j]!)));
    }
    const base = `${wName}/int8`;
    if (!inits.has(base)) {
      added.push(
        onnx.TensorProto.create({ name: base, dims: [K, N], dataType: DT.INT8, rawData: new Uint8Array(q.buffer) }),
        onnx.TensorProto.create({ name: `${base}/scale`, dims: [N], dataType: DT.FLOAT, rawData: new Uint8Array(scales.buffer) }),
        onnx.TensorProto.create({ name: `${base}/zero`, dims: [N], dataType: DT.INT8, rawData: new Uint8Array(N) }),
      );
      inits.set(base, added[added.length - 3]!);
    }
    node.opType = 'DynamicQuantizeMatMul';
    node.domain = 'com.microsoft';
    node.input = [node.input![0]!, base, `${base}/scale`, `${base}/zero`];
    const left = (uses.get(wName) ?? 1) - 1;
    uses.set(wName, left);
    if (left === 0) replaced.add(wName);
    quantized++;
  }
  g.initializer = [...(g.initializer ?? []).filter((t) => !replaced.has(t.name ?? '')), ...added];
  if (!(m.opsetImport ?? []).some((o) => o.domain === 'com.microsoft')) m.opsetImport = [...(m.opsetImport ?? []), { domain: 'com.microsoft', version: 1 }];
  return { bytes: onnx.ModelProto.encode(m).finish(), quantized, kept };
}
