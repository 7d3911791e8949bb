/**
 * The sentencepiece unigram tokenizer the Universal Sentence Encoder lite was trained with, as the
 * TF.js Universal Sentence Encoder runs it over vocab.json (a `[piece, score][]` list): NFKC
 * normalisation (no lower-casing: the vocabulary has cased pieces), U+2581 before the text and in
 * place of every space, then the segmentation with the best total piece score (Viterbi over a
 * prefix trie). A position where no piece starts becomes the unknown id 0 for one character, and
 * runs of unknowns collapse into one.
 *
 * The reference's tie and scoring rules are kept on purpose, because the model was run with them:
 * scores start at 0 for every position, a later candidate replaces an earlier one when its score
 * is >= the current one or the current one is exactly 0, and the unknown piece scores 0.
 */

/** Marks the start of a word (sentencepiece's "lower one eighth block"). */
export const WORD_START = '\u2581';

/** Turns a text into token ids; the seam that lets another ONNX encoder bring its own tokenizer. */
export interface TextTokenizer {
  encode(text: string): number[];
}

/** A vocabulary as vocab.json holds it: `[piece, log-probability score]`, index = token id. */
export type SentencePieceVocab = readonly (readonly [string, number])[];

interface TrieNode {
  children: Map<string, TrieNode>;
  /** Token id of the piece ending here, or -1. */
  id: number;
  score: number;
}

const newNode = (): TrieNode => ({ children: new Map(), id: -1, score: 0 });

/** Token id the reference gives every character no piece starts with. */
export const UNKNOWN_ID = 0;

/** Sentencepiece unigram tokenizer over a `[piece, score][]` vocabulary. */
export class SentencePieceTokenizer implements TextTokenizer {
  private readonly root: TrieNode = newNode();
  /** Length in characters (code points) of each piece; how far one step of the backward pass goes. */
  private readonly pieceChars: Int32Array;

  /**
   * `reserved` leading entries (unknown, `<s>`, `</s>`, extra ids) are never produced by matching;
   * USE-lite reserves 6.
   */
  constructor(vocab: SentencePieceVocab, reserved = 6) {
    if (vocab.length <= reserved) throw new Error(`sentencepiece: a vocabulary of ${vocab.length} entries has no pieces past the ${reserved} reserved ids`);
    this.pieceChars = new Int32Array(vocab.length);
    vocab.forEach(([piece], id) => (this.pieceChars[id] = [...piece].length));
    // The unknown token stands for exactly one character whatever its own spelling.
    this.pieceChars[UNKNOWN_ID] = 1;
    for (let id = reserved; id < vocab.length; id++) {
      const [piece, score] = vocab[id]!;
      let node = this.root;
      for (const ch of piece) {
        let next = node.children.get(ch);
        if (!next) node.children.set(ch, (next = newNode()));
        node = next;
      }
      node.id = id;
      node.score = score;
    }
  }

  /** The normalised symbol sequence the lattice runs over (one entry per code point). */
  static symbols(text: string): string[] {
    const normalized = text.normalize('NFKC');
    return normalized.length === 0 ? [] : [...(WORD_START + normalized.replaceAll(' ', WORD_START))];
  }

  /** Token ids for one text; an empty text has none. */
  encode(text: string): number[] {
    const symbols = SentencePieceTokenizer.symbols(text);
    const n = symbols.length;
    const best = new Float64Array(n + 1);
    const bestId = new Int32Array(n + 1);
    const consider = (end: number, id: number, score: number): void => {
      if (best[end] === 0 || score >= best[end]!) {
        best[end] = score;
        bestId[end] = id;
      }
    };
    // Forward over start positions: every piece ending at `end` starts before it, so best[start]
    // is final when it is read, and candidates for one end arrive in increasing start order, the
    // order the reference visits them in.
    for (let start = 0; start < n; start++) {
      let node = this.root.children.get(symbols[start]!);
      let matched = false;
      for (let end = start + 1; node; end++) {
        if (node.id >= 0) {
          matched = true;
          consider(end, node.id, best[start]! + node.score);
        }
        if (end >= n) break;
        node = node.children.get(symbols[end]!);
      }
      if (!matched) consider(start + 1, UNKNOWN_ID, best[start]!);
    }
    const reversed: number[] = [];
    for (let end = n; end > 0; end -= this.pieceChars[bestId[end]!]!) {
      const id = bestId[end]!;
      if (!(id === UNKNOWN_ID && reversed.at(-1) === UNKNOWN_ID)) reversed.push(id);
    }
    return reversed.reverse();
  }
}

/**
 * Checks that a parsed vocab.json has the `[piece, score][]` shape. USE-lite's file has a few
 * pieces whose score is null (":", "://", "▁:)", ...); the reference adds scores with `+`, where
 * null counts as 0, so they become 0 here.
 */
export function parseSentencePieceVocab(json: unknown, source: string): SentencePieceVocab {
  if (!Array.isArray(json)) throw new Error(`${source}: a sentencepiece vocabulary is an array of [piece, score]`);
  return json.map((e: unknown, i): [string, number] => {
    if (!Array.isArray(e) || typeof e[0] !== 'string' || !(typeof e[1] === 'number' || e[1] === null)) throw new Error(`${source}: entry ${i} is not [piece, score]`);
    return [e[0], e[1] ?? 0];
  });
}
