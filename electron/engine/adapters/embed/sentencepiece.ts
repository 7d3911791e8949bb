/**
 * The sentencepiece unigram tokenizer the Universal Sentence Encoder lite was trained with:
 * NFKC-normalise, mark word starts with U+2581, then pick the segmentation with the best total
 * piece score (Viterbi over a prefix trie). A character no piece covers becomes the unknown id 0,
 * and runs of unknowns collapse into one.
 */

const WORD_START = '\u2581';

interface TrieNode {
  children: Map<string, TrieNode>;
  id: number;
  score: number;
}

/** Tokenizer over a `[piece, score][]` vocabulary (the model's vocab.json). */
export class SentencePieceTokenizer {
  private readonly root: TrieNode = { children: new Map(), id: -1, score: 0 };
  private readonly pieceLength: number[];

  /** `reserved` leading entries (unknown, <s>, </s>, extra ids) are never produced by matching. */
  constructor(vocab: [string, number][], reserved = 6) {
    this.pieceLength = vocab.map(([p]) => [...p].length);
    for (let id = reserved; id < vocab.length; id++) {
      const [piece, score] = vocab[id]!;
      let node = this.root;
      for (const ch of piece) {
        let next = node.children.get(ch);
        if (!next) {
          next = { children: new Map(), id: -1, score: 0 };
          node.children.set(ch, next);
        }
        node = next;
      }
      node.id = id;
      node.score = score;
    }
  }

  /** Token ids for one text. */
  encode(text: string): number[] {
    const normalized = text.normalize('NFKC');
    const symbols = normalized.length > 0 ? [...(WORD_START + normalized.replace(/ /g, WORD_START))] : [];
    const n = symbols.length;
    const best = new Float64Array(n + 1).fill(Number.NEGATIVE_INFINITY);
    const bestId = new Int32Array(n + 1);
    const bestLen = new Int32Array(n + 1);
    best[0] = 0;
    for (let i = 0; i < n; i++) {
      if (best[i] === Number.NEGATIVE_INFINITY) continue;
      let node: TrieNode | undefined = this.root;
      let matched = false;
      for (let j = i; j < n && node; j++) {
        node = node.children.get(symbols[j]!);
        if (node && node.id >= 0) {
          matched = true;
          const score = best[i]! + node.score;
          if (score >= best[j + 1]!) {
            best[j + 1] = score;
            bestId[j + 1] = node.id;
            bestLen[j + 1] = j + 1 - i;
          }
        }
      }
      // no piece starts here: step over one character as the unknown id, with a heavy penalty
      if (!matched && best[i]! - 100 > best[i + 1]!) {
        best[i + 1] = best[i]! - 100;
        bestId[i + 1] = 0;
        bestLen[i + 1] = 1;
      }
    }
    const out: number[] = [];
    for (let end = n; end > 0; end -= bestLen[end]!) out.push(bestId[end]!);
    out.reverse();
    return out.filter((id, k) => !(id === 0 && out[k - 1] === 0));
  }

  /** Number of characters a piece covers (for tests and diagnostics). */
  pieceChars(id: number): number {
    return this.pieceLength[id] ?? 0;
  }
}
