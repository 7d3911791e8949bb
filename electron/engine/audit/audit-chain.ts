/**
 * The audit trail's hash chain: every verdict, human decision, memory change, check change and policy change
 * gets one entry whose hash covers the entry and the previous entry's hash, so an edit or a
 * deletion anywhere breaks the chain from that point on. The store writes entries in the same
 * transaction as the record they describe; this module only computes and verifies.
 */
import { createHash } from 'node:crypto';

/** What an audit entry records. */
export type AuditKind =
  | 'verdict.created'
  | 'verdict.updated'
  | 'review.decided'
  | 'review.reverted'
  | 'tree.event'
  | 'tree.reverted'
  | 'check.saved'
  | 'check.deleted'
  | 'policy.saved'
  | 'policy.deleted'
  | 'backfill';

/** Whether an entry records that its record was removed (so the record's absence is expected). */
export function isRemoval(kind: AuditKind): boolean {
  return kind === 'check.deleted' || kind === 'policy.deleted';
}

/** One link of the chain. `ref` names the record (`verdict:<id>`, `event:<id>`, `check:<id>`, `policy:<id>`). */
export interface AuditEntry {
  seq: number;
  at: number;
  kind: AuditKind;
  ref: string;
  /** SHA-256 of the record's body as stored (hex). */
  bodyHash: string;
  /** The previous entry's hash; GENESIS for the first. */
  prevHash: string;
  hash: string;
}

/** The prev hash of the first entry. */
export const GENESIS = '0'.repeat(64);

/** SHA-256 of a text, hex. */
export function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The hash of an entry: every field but the hash itself, in a fixed order. */
export function entryHash(e: Omit<AuditEntry, 'hash'>): string {
  return sha256(`${e.seq}\n${e.at}\n${e.kind}\n${e.ref}\n${e.bodyHash}\n${e.prevHash}`);
}

/** Builds the entry that follows `prev` (undefined for the first). */
export function nextEntry(prev: Pick<AuditEntry, 'seq' | 'hash'> | undefined, e: { at: number; kind: AuditKind; ref: string; body: string }): AuditEntry {
  const base = { seq: (prev?.seq ?? 0) + 1, at: e.at, kind: e.kind, ref: e.ref, bodyHash: sha256(e.body), prevHash: prev?.hash ?? GENESIS };
  return { ...base, hash: entryHash(base) };
}

/** One thing verification found wrong. */
export interface AuditProblem {
  seq?: number;
  ref?: string;
  problem: string;
}

/** The result of verifying the chain and the records against it. */
export interface AuditReport {
  ok: boolean;
  entries: number;
  /** Hash of the last entry (the head a reader may note down to detect a truncation later). */
  head: string;
  problems: AuditProblem[];
}

/** The current body of every audited record, keyed by ref; undefined when the record is gone. */
export type RecordLookup = (ref: string) => string | undefined;

/**
 * Verifies a chain read in seq order: each entry's hash, its link to the previous one, and no gap
 * in the sequence. With `records`, also checks every record against the last entry about it (an
 * edited body, a deleted row, or a row that has no entry at all). Stops listing after 100
 * problems.
 */
export function verifyChain(entries: Iterable<AuditEntry>, records?: { lookup: RecordLookup; refs: Iterable<string> }, expectedHead?: string): AuditReport {
  const problems: AuditProblem[] = [];
  const add = (p: AuditProblem): void => {
    if (problems.length < 100) problems.push(p);
  };
  const last = new Map<string, AuditEntry>();
  let prev: AuditEntry | undefined;
  let n = 0;
  for (const e of entries) {
    n++;
    const expectSeq = (prev?.seq ?? 0) + 1;
    if (e.seq !== expectSeq) add({ seq: e.seq, problem: `entries ${expectSeq}..${e.seq - 1} are missing (deleted)` });
    if (e.prevHash !== (prev?.hash ?? GENESIS)) add({ seq: e.seq, problem: 'prev hash does not match the previous entry (an entry was edited, removed or inserted)' });
    if (entryHash(e) !== e.hash) add({ seq: e.seq, ref: e.ref, problem: 'entry hash does not match its fields (the entry was edited)' });
    last.set(e.ref, e);
    prev = e;
  }
  if (expectedHead !== undefined && (prev?.hash ?? GENESIS) !== expectedHead) add({ problem: 'the chain does not end at the recorded head (entries were removed from the end)' });
  if (records) {
    const seen = new Set<string>();
    for (const ref of records.refs) {
      seen.add(ref);
      const entry = last.get(ref);
      const body = records.lookup(ref);
      if (!entry) add({ ref, problem: 'record has no audit entry (written outside the store, or its entries were removed)' });
      else if (body !== undefined && !isRemoval(entry.kind) && sha256(body) !== entry.bodyHash) add({ seq: entry.seq, ref, problem: 'record differs from what the audit trail recorded (edited)' });
    }
    for (const [ref, entry] of last) {
      if (seen.has(ref) || isRemoval(entry.kind)) continue;
      if (records.lookup(ref) === undefined) add({ seq: entry.seq, ref, problem: 'record is gone but the audit trail never recorded its removal (deleted)' });
    }
  }
  return { ok: problems.length === 0, entries: n, head: prev?.hash ?? GENESIS, problems };
}
