/**
 * The projector as an ONNX graph: export from trained weights (onnx-proto) and score with
 * onnxruntime-node. Graph: z = relu(x W1 + b1) W2 + b2; d_h = |z - mu_harm|, d_b = |z - mu_benign|;
 * p_harm = sigmoid(d_b - d_h). Inputs `x` [N, inDim]; outputs `p_harm` [N, 1] and `z` [N, outDim].
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createHash } from 'node:crypto';
import ortModule from 'onnxruntime-node';
import onnxProto from 'onnx-proto';
import type { Projector } from '../../ports.js';
import type { ProjectorWeights } from '../../core/projector/train.js';
import { EngineError } from '../../../../shared/errors.js';

const { onnx } = onnxProto;
const ort = ortModule;
const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;

function floatInit(name: string, dims: number[], data: Float32Array): InstanceType<typeof onnx.TensorProto> {
  return onnx.TensorProto.create({ name, dims, dataType: FLOAT, rawData: new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)) });
}

function node(op: string, inputs: string[], outputs: string[], attrs: InstanceType<typeof onnx.AttributeProto>[] = []): InstanceType<typeof onnx.NodeProto> {
  return onnx.NodeProto.create({ opType: op, input: inputs, output: outputs, name: outputs[0]!, attribute: attrs });
}

function valueInfo(name: string, dims: (number | string)[]): InstanceType<typeof onnx.ValueInfoProto> {
  return onnx.ValueInfoProto.create({
    name,
    type: {
      tensorType: {
        elemType: FLOAT,
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  });
}

/** Serialises trained weights as an ONNX model (opset 13). */
export function exportProjectorOnnx(w: ProjectorWeights, docString = 'Warden safety projector'): Uint8Array {
  const distance = (mu: string, out: string): InstanceType<typeof onnx.NodeProto>[] => [
    node('Sub', ['z', mu], [`${out}_diff`]),
    node('Mul', [`${out}_diff`, `${out}_diff`], [`${out}_sq`]),
    node('ReduceSum', [`${out}_sq`, 'axis1'], [`${out}_sum`], [onnx.AttributeProto.create({ name: 'keepdims', type: onnx.AttributeProto.AttributeType.INT, i: 1 })]),
    node('Add', [`${out}_sum`, 'eps'], [`${out}_sumeps`]),
    node('Sqrt', [`${out}_sumeps`], [out]),
  ];
  const graph = onnx.GraphProto.create({
    name: 'projector',
    input: [valueInfo('x', ['N', w.inDim])],
    output: [valueInfo('p_harm', ['N', 1]), valueInfo('z', ['N', w.outDim])],
    initializer: [
      floatInit('W1', [w.inDim, w.hidden], w.w1),
      floatInit('B1', [w.hidden], w.b1),
      floatInit('W2', [w.hidden, w.outDim], w.w2),
      floatInit('B2', [w.outDim], w.b2),
      floatInit('mu_harm', [w.outDim], w.muHarm),
      floatInit('mu_benign', [w.outDim], w.muBenign),
      floatInit('eps', [1], new Float32Array([1e-6])),
      onnx.TensorProto.create({ name: 'axis1', dims: [1], dataType: INT64, int64Data: [1] }),
    ],
    node: [
      node('MatMul', ['x', 'W1'], ['h_lin']),
      node('Add', ['h_lin', 'B1'], ['h_pre']),
      node('Relu', ['h_pre'], ['h']),
      node('MatMul', ['h', 'W2'], ['z_lin']),
      node('Add', ['z_lin', 'B2'], ['z']),
      ...distance('mu_harm', 'd_harm'),
      ...distance('mu_benign', 'd_benign'),
      node('Sub', ['d_benign', 'd_harm'], ['logit']),
      node('Sigmoid', ['logit'], ['p_harm']),
    ],
  });
  const model = onnx.ModelProto.create({
    irVersion: 7,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'warden',
    producerVersion: '1',
    docString,
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

/** Writes the exported model to `path`, creating its folder. */
export async function saveProjectorOnnx(path: string, w: ProjectorWeights, docString?: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, exportProjectorOnnx(w, docString));
}

/** Scores embeddings with an exported projector under onnxruntime-node. */
export class OnnxProjector implements Projector {
  readonly id: string;
  readonly inDim: number;
  private constructor(
    private readonly session: ortModule.InferenceSession,
    id: string,
    inDim: number,
  ) {
    this.id = id;
    this.inDim = inDim;
  }

  /** Loads a model from bytes or a file path. */
  static async load(source: string | Uint8Array): Promise<OnnxProjector> {
    let bytes: Uint8Array;
    try {
      bytes = typeof source === 'string' ? new Uint8Array(await readFile(source)) : source;
    } catch (e) {
      throw new EngineError('MODEL_MISSING', `projector model not readable at ${String(source)}: ${(e as Error).message}; run \`warden train\``);
    }
    const decoded = onnx.ModelProto.decode(bytes);
    const xInfo = decoded.graph?.input?.find((i) => i.name === 'x');
    const inDim = Number(xInfo?.type?.tensorType?.shape?.dim?.[1]?.dimValue ?? 0);
    if (!inDim) throw new EngineError('MODEL_MISSING', 'projector model has no input x [N, dim]');
    const session = await ort.InferenceSession.create(bytes, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' });
    const id = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
    return new OnnxProjector(session, `projector-${id}`, inDim);
  }

  async score(xs: Float32Array[]): Promise<{ pHarm: number; z: Float32Array }[]> {
    if (xs.length === 0) return [];
    const flat = new Float32Array(xs.length * this.inDim);
    xs.forEach((x, i) => {
      if (x.length !== this.inDim) throw new EngineError('EMBEDDER_FAILED', `projector expects ${this.inDim}-d input, got ${x.length}`);
      flat.set(x, i * this.inDim);
    });
    const out = await this.session.run({ x: new ort.Tensor('float32', flat, [xs.length, this.inDim]) });
    const p = out['p_harm']!.data as Float32Array;
    const z = out['z']!.data as Float32Array;
    const outDim = z.length / xs.length;
    return xs.map((_, i) => ({ pHarm: p[i]!, z: z.slice(i * outDim, (i + 1) * outDim) }));
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}
