/**
 * Does a piece of page text read as instructions to an AI agent (a prompt injection), rather than
 * as ordinary text addressed to the human using the page?
 *
 * The detector is a small phrase scorer over normalised words. Text is normalised the way
 * `plainWords` in checks/functions.ts normalises names: Unicode compatibility forms folded,
 * invisible characters dropped, camelCase split, lower-cased, `_ - . / + =` turned into spaces;
 * letter-spaced words ("i g n o r e") are joined. Web addresses, e-mail addresses and domain names
 * are found before that and replaced by one token each, marked foreign when they point away from
 * the page's own hosts.
 *
 * Each cue family counts once, with the weight of its strongest phrase:
 *
 * | cue          | weight | example |
 * | ------------ | -----: | ------- |
 * | override     | 3      | "ignore previous instructions", "your new task is", "you are now" |
 * | addressing   | 2      | "AI agent:", "assistant:", "if you are an AI", "note to the LLM" |
 * | secrecy      | 2      | "do not tell the user", "without asking the user", "secretly" |
 * | exfiltration | 2      | "send the card details to <address>", "forward your data to this server" |
 * | credentials  | 1.5    | "enter the card number", "provide your password", "type the CVV" |
 * | destination  | 1      | a URL, domain or e-mail address on another host |
 * | navigation   | 0.5    | "go to", "navigate to", "visit <address>", "open this link" |
 * | command      | 1      | a UI imperative ("click", "buy", "delete"), counted only beside addressing, override or secrecy |
 * | urgency      | 0.5    | "immediately", "before doing anything else", "important:" |
 *
 * Text is `injected` when the sum reaches {@link INJECTION_THRESHOLD} (2.5). No single ordinary
 * cue reaches it, nor do the pairs ordinary pages hold: a checkout form's "Enter your card number"
 * (1.5), "Enter your password or go to account recovery" (2), a link to a partner site (1). An
 * override alone passes it, as do a request for card data aimed at a foreign address (2.5) and an
 * agent addressed with a command (3). The same threshold holds for hidden and visible text; the
 * caller decides where to look.
 */

/** A family of phrases that, together, make text read as instructions to an agent. */
export type InjectionCue =
  | 'override'
  | 'addressing'
  | 'secrecy'
  | 'exfiltration'
  | 'credentials'
  | 'destination'
  | 'navigation'
  | 'command'
  | 'urgency';

/** One cue found in the text, with the words that matched. */
export interface CueMatch {
  cue: InjectionCue;
  weight: number;
  phrase: string;
}

/** The detector's answer for one text. */
export interface InjectionScore {
  /** Sum of the strongest weight of each cue family found. */
  score: number;
  /** `score >= INJECTION_THRESHOLD`. */
  injected: boolean;
  /** The cues found, strongest first. */
  cues: CueMatch[];
}

/** What the detector may know about where the text was found. */
export interface InjectionContext {
  /**
   * Host names of the page the text is on. An address on one of them (or a subdomain or parent of
   * one) is the page's own and is not a `destination` cue. Empty or absent: every address counts.
   */
  ownHosts?: string[];
}

/** Score at or above which text reads as instructions to an agent. */
export const INJECTION_THRESHOLD = 2.5;

const WEIGHTS: Record<InjectionCue, number> = {
  override: 3,
  addressing: 2,
  secrecy: 2,
  exfiltration: 2,
  credentials: 1.5,
  destination: 1,
  navigation: 0.5,
  command: 1,
  urgency: 0.5,
};

/** Tokens that replace addresses in the normalised words. */
const FOREIGN = 'xaddrx';
const OWN = 'oaddrx';

// Extensions that look like top-level domains in "notes.txt" or "node.js" but name files.
const FILE_EXTENSIONS = new Set(['js', 'ts', 'mjs', 'cjs', 'jsx', 'tsx', 'txt', 'md', 'png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'html', 'htm', 'php', 'css', 'json', 'xml', 'pdf', 'exe', 'zip', 'py', 'sh', 'csv', 'doc', 'docx', 'xls', 'xlsx', 'mp3', 'mp4', 'ico', 'map']);

// a top-level domain in lower case, so "continue.Enter" (two sentences run together) is no address
const ADDRESS = /\b(?:[Hh][Tt][Tt][Pp][Ss]?:\/\/[^\s"'<>]+|[Ww][Ww][Ww]\.[^\s"'<>]+|[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+|(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[a-z]{2,24}(?::\d+)?(?:\/[^\s"'<>]*)?)/g;

/** The host an address points at, or undefined when the match is not an address (a file name). */
function addressHost(raw: string): string | undefined {
  const s = raw.replace(/[),.;:!?\]]+$/, '');
  if (/^https?:\/\//i.test(s) || /^www\./i.test(s)) {
    try {
      return new URL(/^www\./i.test(s) ? `http://${s}` : s).hostname.toLowerCase();
    } catch {
      return undefined;
    }
  }
  const at = s.indexOf('@');
  const host = (at >= 0 ? s.slice(at + 1) : s).split(/[/:]/)[0]!.toLowerCase();
  const tld = host.slice(host.lastIndexOf('.') + 1);
  if (at < 0 && FILE_EXTENSIONS.has(tld)) return undefined;
  return host;
}

function isOwnHost(host: string, own: string[]): boolean {
  const h = host.replace(/^www\./, '');
  return own.some((o) => {
    const p = o.toLowerCase().replace(/^www\./, '');
    return p !== '' && (h === p || h.endsWith(`.${p}`) || p.endsWith(`.${h}`));
  });
}

/**
 * Lower-cased words of `text`, with separators and camelCase undone, invisible characters
 * dropped and letter-spaced words joined. Addresses are kept as they are; use
 * {@link scoreInjectedText} to score text.
 */
export function normaliseText(text: string): string {
  let s = text
    .normalize('NFKC')
    .replace(/[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]/g, '')
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[_\-./+=]+/g, ' ')
    .replace(/[^\p{L}\p{N}:'\s]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  // "i g n o r e  a l l" hides words from a phrase matcher: join runs of four or more single letters
  s = s.replace(/\b(?:\p{L} ){3,}\p{L}\b/gu, (run) => run.replace(/ /g, ''));
  return s;
}

interface Phrase {
  cue: InjectionCue;
  re: RegExp;
}

const W = String.raw`(?:\S+ ){0,4}?`; // up to four words in between, as few as possible
const DATA_OBJECT = String.raw`(?:data|information|info|details|credentials|passwords?|cookies?|tokens?|session|history|conversation|chat|messages|contacts|files?|documents?|keys?|card|cards|numbers?|personal|everything|it|them|this)`;
const SENSITIVE = String.raw`(?:password|passwords|passcode|passphrase|pin|credentials|login details|card number|credit card|debit card|card details|card info|cvv|cvc|cvv2|security code|expiry date|ssn|social security|bank account|account number|routing number|iban|api key|secret key|private key|seed phrase|recovery phrase|mnemonic|2fa|otp|one time code|one time password|verification code)`;
const AGENT = String.raw`(?:ai|a i|llm|llms|language model|large language model|ai agent|ai agents|ai assistant|ai assistants|assistant|agent|agents|bot|chatbot|model|gpt|chatgpt|claude|gemini|copilot|autonomous agent|web agent|browsing agent)`;
// "Agent: Jane" and "Model: X200" are ordinary labels; only these names address an AI before a colon
const AGENT_LABEL = String.raw`(?:ai|a i|llm|language model|ai agent|ai assistant|assistant|chatgpt|gpt|claude|gemini|copilot|autonomous agent|web agent|browsing agent)`;
const ENDPOINT = String.raw`(?:${FOREIGN}|${OWN}|(?:this|the following|my|our|the attacker's) (?:address|email|e mail|url|endpoint|server|webhook|number|account))`;

const PHRASES: Phrase[] = [
  {
    cue: 'override',
    re: new RegExp(
      String.raw`\b(?:ignore|disregard|forget|do not follow|don't follow|stop following|bypass|override) (?:(?:all|any|the|your|of|every|these|those|my) )*(?:(?:previous|prior|above|earlier|preceding|original|former|initial|old|user's|human's|system|safety|security|existing|other|given) )?(?:instructions?|prompts?|directions?|directives?|rules|guidelines|commands?|orders|requests?|tasks?|guardrails|polic(?:y|ies)|restrictions|system message|programming)\b`,
    ),
  },
  { cue: 'override', re: /\b(?:your|the) (?:new|real|actual|true|updated|only) (?:task|objective|goal|instructions?|mission|orders)\b/ },
  { cue: 'override', re: /\b(?:new|updated|revised|additional) instructions? (?:for|to) (?:you|the (?:ai|agent|assistant|model|bot))\b/ },
  { cue: 'override', re: /\byou are now\b|\bfrom now on,? you\b|\bact as (?:if|though) (?:you|the user)\b/ },
  { cue: 'override', re: /\b(?:reveal|print|show|repeat|output|leak) (?:your|the) (?:system )?(?:prompt|instructions)\b/ },
  { cue: 'addressing', re: new RegExp(String.raw`(?:^|[:'\s])${AGENT_LABEL} ?:`) },
  { cue: 'addressing', re: new RegExp(String.raw`\b(?:attention|note|message|instructions?|notice|reminder|dear|hey|hello|hi) (?:to |for )?(?:the |all |any )?${AGENT}\b`) },
  { cue: 'addressing', re: new RegExp(String.raw`\bif you are an? (?:automated|autonomous|crawler|${AGENT})\b`) },
  { cue: 'addressing', re: /\b(?:to|for) (?:the|any|all|every) (?:ai|llm|language model|ai agent|ai assistant|autonomous agent|web agent|browsing agent)s?\b/ },
  { cue: 'secrecy', re: /\b(?:do not|don't|never|must not) (?:tell|inform|notify|alert|show|mention|reveal|ask|warn|let) (?:\S+ ){0,2}?(?:user|human|customer|owner|person|operator)\b/ },
  {
    cue: 'secrecy',
    re: /\bwithout (?:telling|asking|informing|notifying|alerting|warning|confirming with|consulting) (?:the )?(?:user|human|customer|owner|them|anyone)\b|\bwithout (?:the )?(?:user's|human's|customer's|owner's) (?:knowledge|consent|approval|permission)\b|\bwithout (?:the )?(?:user|human) (?:knowing|noticing)\b/,
  },
  { cue: 'secrecy', re: /\b(?:secretly|covertly|behind the user's back)\b|\bthe user (?:will|must|should|does) not (?:know|notice|see)\b/ },
  { cue: 'exfiltration', re: new RegExp(String.raw`\b(?:send|email|e mail|mail|forward|post|upload|transmit|transfer|leak|exfiltrate|copy|share|submit|report)\b ${W}${DATA_OBJECT}\b (?:\S+ ){0,4}?to (?:\S+ ){0,2}?${ENDPOINT}`) },
  { cue: 'credentials', re: new RegExp(String.raw`\b(?:enter|type|input|provide|submit|paste|fill in|give|share|send|insert|supply|write|confirm|verify|update|disclose|reveal)\b ${W}${SENSITIVE}\b`) },
  { cue: 'navigation', re: new RegExp(String.raw`\b(?:go|navigate|redirect|proceed|head|browse|switch|move) to\b|\b(?:visit|open|load|follow|click)\b (?:\S+ ){0,3}?(?:link|url|site|website|page|address|domain|${FOREIGN}|${OWN})\b`) },
  { cue: 'command', re: /\b(?:click|press|tap|select|choose|buy|purchase|order|approve|accept|confirm|delete|remove|transfer|pay|download|install|run|execute|recommend|rate|subscribe|fill|submit|type|enter|navigate|go to|visit|open|send)\b/ },
  { cue: 'urgency', re: /\b(?:immediately|right now|right away|urgent|urgently|asap|before doing anything else|first of all|important ?:|warning ?:)/ },
];

/**
 * Scores `text` for instructions to an AI agent. Pure and deterministic; see the module comment
 * for the cues and their weights.
 */
export function scoreInjectedText(text: string, ctx: InjectionContext = {}): InjectionScore {
  const own = ctx.ownHosts ?? [];
  let foreign: string | undefined;
  // addresses become one token each before separators are undone, so "evil.example/login" stays one thing
  const marked = text.replace(ADDRESS, (raw) => {
    const host = addressHost(raw);
    if (host === undefined) return raw;
    if (own.length > 0 && isOwnHost(host, own)) return ` ${OWN} `;
    foreign ??= raw.replace(/[),.;:!?\]]+$/, '');
    return ` ${FOREIGN} `;
  });
  const words = normaliseText(marked);
  const best = new Map<InjectionCue, CueMatch>();
  for (const p of PHRASES) {
    if (best.has(p.cue)) continue;
    const m = p.re.exec(words);
    if (m) best.set(p.cue, { cue: p.cue, weight: WEIGHTS[p.cue], phrase: m[0].trim() });
  }
  if (foreign !== undefined) best.set('destination', { cue: 'destination', weight: WEIGHTS.destination, phrase: foreign });
  // a bare UI imperative is ordinary page text; it counts only beside words aimed at an agent
  if (!best.has('addressing') && !best.has('override') && !best.has('secrecy')) best.delete('command');
  const cues = [...best.values()]
    .map((c) => ({ ...c, phrase: c.phrase.replaceAll(FOREIGN, '<foreign address>').replaceAll(OWN, '<own address>') }))
    .sort((a, b) => b.weight - a.weight);
  const score = cues.reduce((s, c) => s + c.weight, 0);
  return { score, injected: score >= INJECTION_THRESHOLD, cues };
}
