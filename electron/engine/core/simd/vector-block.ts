/**
 * Packed matrices of float32 rows in WebAssembly memory, scanned against one query vector by the
 * SIMD kernel in dots.wat (four lanes, four accumulators). The engine's exact scans (the benign
 * store, a retrieved leaf's members, a tree node's children) run here instead of a scalar JS loop.
 *
 * Every block of one row width lives in one shared arena: one kernel instance and one memory, since
 * a process can hold only a few thousand WebAssembly memories and a tree has a block per node. The
 * arena hands out regions of a power-of-two number of rows, keeps freed regions for reuse, and
 * takes a region back when its block is garbage-collected. Rows are padded with zeros to a
 * multiple of 16 floats (the kernel's step), which leaves every dot product unchanged.
 */
import { DOTS_WASM_BASE64 } from './dots-wasm.js';

const PAGE = 65_536;
const STEP = 16;
/** A wasm32 memory holds at most 65,536 pages (4 GiB). */
const MAX_PAGES = 65_536;

/** The part of the WebAssembly API used here (the project's TypeScript libs do not declare it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface KernelExports {
  memory: WasmMemory;
  dots(x: number, base: number, rows: number, dim: number, out: number): void;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let compiled: object | undefined;

function kernelModule(): object {
  compiled ??= new wasm.Module(Buffer.from(DOTS_WASM_BASE64, 'base64'));
  return compiled;
}

/** A region of an arena: its first float and how many rows it holds. */
interface Region {
  at: number;
  rows: number;
}

function roundRows(n: number): number {
  let r = 1;
  while (r < n) r *= 2;
  return r;
}

/** One memory and kernel shared by every block of one row width. */
class VectorArena {
  private static readonly byStride = new Map<number, VectorArena>();

  /** The process's arena for rows of `stride` floats. */
  static of(stride: number): VectorArena {
    let a = VectorArena.byStride.get(stride);
    if (!a) {
      a = new VectorArena(stride);
      VectorArena.byStride.set(stride, a);
    }
    return a;
  }

  private readonly kernel: KernelExports;
  private view: Float32Array;
  /** First float not yet handed out. The query sits in row 0. */
  private top: number;
  private readonly free = new Map<number, number[]>();
  private out: Region = { at: 0, rows: 0 };
  /** Takes back the region of a block that was garbage-collected without being released. */
  readonly reclaim = new FinalizationRegistry<Region>((r) => this.release(r));

  private constructor(readonly stride: number) {
    this.kernel = new wasm.Instance(kernelModule()).exports as KernelExports;
    this.view = new Float32Array(this.kernel.memory.buffer);
    this.top = stride;
  }

  floats(): Float32Array {
    if (this.view.buffer !== this.kernel.memory.buffer) this.view = new Float32Array(this.kernel.memory.buffer);
    return this.view;
  }

  /** A region of at least `rows` rows (a power of two). */
  alloc(rows: number): Region {
    const size = roundRows(rows);
    const reused = this.free.get(size)?.pop();
    if (reused !== undefined) return { at: reused, rows: size };
    const at = this.top;
    const end = at + size * this.stride;
    const have = this.kernel.memory.buffer.byteLength / 4;
    if (end > have) {
      const pages = this.kernel.memory.buffer.byteLength / PAGE;
      const need = Math.ceil((end * 4) / PAGE) - pages;
      // grow by at least half again, so a growing block does not grow memory every time
      const grow = Math.min(Math.max(need, Math.ceil(pages / 2)), MAX_PAGES - pages);
      if (grow < need) throw new RangeError(`vector arena is full (${pages} pages); cannot hold ${size} more rows of ${this.stride}`);
      this.kernel.memory.grow(grow);
    }
    this.top = end;
    return { at, rows: size };
  }

  release(r: Region): void {
    const list = this.free.get(r.rows);
    if (list) list.push(r.at);
    else this.free.set(r.rows, [r.at]);
  }

  /** Dot products of the query with `rows` rows from float `at`; the result is the arena's scratch. */
  dots(x: Float32Array, at: number, rows: number): Float32Array {
    const outRows = Math.ceil(rows / this.stride);
    if (this.out.rows < outRows) {
      if (this.out.rows > 0) this.release(this.out);
      this.out = this.alloc(outRows);
    }
    const f = this.floats();
    f.set(x, 0);
    f.fill(0, x.length, this.stride);
    this.kernel.dots(0, 4 * at, rows, this.stride, 4 * this.out.at);
    return this.floats().subarray(this.out.at, this.out.at + rows);
  }
}

/** Rows of `dim` floats, appended, overwritten, moved and dropped by index. */
export class VectorBlock {
  readonly dim: number;
  private readonly arena: VectorArena;
  private region: Region;
  private count = 0;

  constructor(dim: number, capacity = 8) {
    if (!Number.isInteger(dim) || dim <= 0) throw new Error(`vector block needs a positive dimension, got ${dim}`);
    this.dim = dim;
    this.arena = VectorArena.of(Math.ceil(dim / STEP) * STEP);
    this.region = this.arena.alloc(Math.max(1, capacity));
    this.arena.reclaim.register(this, this.region, this);
  }

  get length(): number {
    return this.count;
  }

  private rowAt(i: number): number {
    return this.region.at + i * this.arena.stride;
  }

  private check(v: Float32Array): void {
    if (v.length !== this.dim) throw new Error(`vector block expects ${this.dim}-d vectors, got ${v.length}`);
  }

  /** Appends a row; returns its index. */
  push(v: Float32Array): number {
    this.check(v);
    if (this.count === this.region.rows) {
      const grown = this.arena.alloc(this.region.rows * 2);
      const f = this.arena.floats();
      f.copyWithin(grown.at, this.region.at, this.rowAt(this.count));
      this.arena.reclaim.unregister(this);
      this.arena.release(this.region);
      this.region = grown;
      this.arena.reclaim.register(this, this.region, this);
    }
    this.count++;
    this.set(this.count - 1, v);
    return this.count - 1;
  }

  /** Overwrites row `i`. */
  set(i: number, v: Float32Array): void {
    this.check(v);
    if (i < 0 || i >= this.count) throw new RangeError(`row ${i} outside a block of ${this.count}`);
    const at = this.rowAt(i);
    const f = this.arena.floats();
    f.set(v, at);
    f.fill(0, at + this.dim, at + this.arena.stride);
  }

  /** Copies row `from` over row `to`. */
  copyRow(from: number, to: number): void {
    if (from === to) return;
    this.arena.floats().copyWithin(this.rowAt(to), this.rowAt(from), this.rowAt(from + 1));
  }

  /** Keeps the first `n` rows. */
  truncate(n: number): void {
    this.count = Math.max(0, Math.min(this.count, n));
  }

  /** A copy of row `i`. */
  row(i: number): Float32Array {
    if (i < 0 || i >= this.count) throw new RangeError(`row ${i} outside a block of ${this.count}`);
    const at = this.rowAt(i);
    return this.arena.floats().slice(at, at + this.dim);
  }

  /** The dot product of `x` with every row, in row order (a copy). */
  dots(x: Float32Array): Float32Array {
    return this.scan(x).slice();
  }

  /**
   * The same products in the arena's scratch, without a copy: read them before the next scan of
   * any block of this width.
   */
  scan(x: Float32Array): Float32Array {
    this.check(x);
    return this.arena.dots(x, this.region.at, this.count);
  }

  /** The row most similar to `x` (largest dot product) and its score, or undefined when empty. */
  best(x: Float32Array): { index: number; score: number } | undefined {
    if (this.count === 0) return undefined;
    const d = this.scan(x);
    let index = 0;
    for (let i = 1; i < d.length; i++) if (d[i]! > d[index]!) index = i;
    return { index, score: d[index]! };
  }
}
