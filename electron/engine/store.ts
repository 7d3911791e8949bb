/**
 * The Store port: what the engine persists. Tree nodes and members are stored as opaque bodies
 * next to their vectors, so the tree's own row shape can grow without a migration.
 */
import type { Check, Decision, LoadedPolicy, ReviewDecision, TreeEvent, Verdict } from '../../shared/types.js';
import type { AuditEntry, AuditReport } from './audit/audit-chain.js';

/** A persisted memory-tree node: routing fields plus whatever else the tree serialises. */
export interface StoredNode {
  id: string;
  parentId: string | null;
  kind: string;
  centroid: Float32Array;
  [field: string]: unknown;
}

/** A persisted leaf member (an example that formed the leaf). */
export interface StoredMember {
  id: string;
  leafId: string;
  vector: Float32Array;
  [field: string]: unknown;
}

/** One example in the global benign store (SafeHarbor's benign database). */
export interface BenignRow {
  id: string;
  vector: Float32Array;
  text: string;
  source: string;
  at: number;
}

/** Filters for listing verdicts, newest first. */
export interface VerdictQuery {
  limit?: number;
  before?: number;
  decision?: Decision;
  agent?: string;
  session?: string;
  /** Only asks that no human has decided yet. */
  pending?: boolean;
}

/** Persistence for verdicts, the memory tree, its events, checks and the benign store. */
export interface Store {
  transaction<T>(fn: () => T): T;
  getMeta(key: string): string | undefined;
  setMeta(key: string, value: string): void;

  saveVerdict(v: Verdict): void;
  getVerdict(id: string): Verdict | undefined;
  listVerdicts(q?: VerdictQuery): Verdict[];
  countVerdicts(): Record<Decision | 'pending', number>;
  setReview(verdictId: string, review: ReviewDecision | undefined): void;

  loadTree(): { nodes: StoredNode[]; members: StoredMember[] };
  saveNodes(nodes: StoredNode[]): void;
  deleteNodes(ids: string[]): void;
  saveMembers(members: StoredMember[]): void;
  deleteMembers(ids: string[]): void;
  clearTree(): void;

  /** Appends a tree event with the data needed to undo it; returns its id. */
  appendEvent(e: Omit<TreeEvent, 'id'>, undo?: unknown): number;
  listEvents(q?: { after?: number; limit?: number }): TreeEvent[];
  getEventUndo(id: number): { event: TreeEvent; undo: unknown } | undefined;
  markEventReverted(id: number): void;

  listChecks(): Check[];
  saveCheck(c: Check): void;
  deleteCheck(id: string): void;
  /** Task-specific policies, each with the ids of the checks that came with it. */
  listPolicies(): LoadedPolicy[];
  savePolicy(p: LoadedPolicy): void;
  deletePolicy(id: string): void;
  loadChecksMemory(): unknown[];
  saveChecksMemoryEntry(key: string, entry: unknown): void;

  /**
   * Audit entries in seq order (after `after`, at most `limit`). Every verdict, review, tree event
   * and check write appends one in the same transaction as the write itself.
   */
  auditEntries(q?: { after?: number; limit?: number }): AuditEntry[];
  /** Checks the hash chain and every audited record against it. */
  verifyAudit(): AuditReport;

  addBenign(row: BenignRow): void;
  deleteBenign(id: string): void;
  listBenign(): BenignRow[];

  close(): void;
}
