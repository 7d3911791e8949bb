/**
 * Kinds of files a request can describe ("the old installers", "logs older than a week", "temp
 * files") and how to tell one by its name or the folder it sits in. When a request says which
 * kind of file an action should delete, the entries the action would really reach (found by the
 * sandbox) can be compared with that description: a W-2 PDF is not an installer.
 */

interface FileKind {
  /** Words of a request that name the kind. */
  words: RegExp;
  /** A file name of the kind. */
  name: RegExp;
  /** A folder name that holds the kind (logs in /var/log/app, anything in a cache folder). */
  folder: RegExp;
  /** Named by the request's own words only, not by a folder in a path it gives (~/reports). */
  wordsOnly?: boolean;
  /** Whatever a pattern reaches in a folder of the kind is of it (dumps in /backup/patrondb are backups). */
  byFolder?: boolean;
}

const KINDS: FileKind[] = [
  {
    words: /\b(installers?|installation files?|setup files?|packages?|\.debs?|\.rpms?|\.exes?|\.dmgs?|\.msis?)\b/,
    name: /\.(deb|rpm|exe|msi|dmg|pkg|appimage|apk|run|snap|flatpak|whl|jar|tar\.(gz|xz|bz2|zst)|tgz|zip|7z|iso)$/,
    folder: /^(installers?|packages?|setup)$/,
  },
  { words: /\b(logs?|log files?|logfiles?)\b/, name: /\.(log|out|err)(\.\d+)?(\.(gz|bz2|xz|zst))?$|(^|[._-])logs?([._-]|$)/, folder: /^(logs?|journal)$/ },
  // logrotate's leftovers: numbered or compressed copies (access.log.3.gz, messages.2), named as such
  { words: /\b(rotated|compressed|archived) (\w+ )?logs?\b/, name: /\.(\d+|gz|bz2|xz|zst)$/, folder: /^(logs?|journal)$/ },
  // (a name that goes on into another word is not: tmpl/ holds templates, template.html is one;
  // Python's tempfile names, tmp and eight letters or digits, are)
  { words: /\b(temp|tmp|temporary|scratch)\b(?<!\bfrom scratch)/, name: /\.(tmp|temp|swp|swo|part|partial|crdownload)$|^(tmp|temp)([^a-z]|$)|^tmp[a-z0-9_]{8}$|~$/, folder: /^(tmp|temp|scratch)$/ },
  { words: /\bcaches?\b|\bcached\b/, name: /\.cache$/, folder: /cache/ },
  { words: /\b(backups?|\.bak|bak files?)\b/, name: /\.(bak|backup|old|orig|sav)$|~$|backup/, folder: /backups?/, byFolder: true },
  { words: /\b(images?|photos?|pictures?|pics|screenshots?|jpe?gs?|pngs?|thumbnails?)\b/, name: /\.(jpe?g|png|gif|heic|webp|bmp|tiff?|raw|cr2|nef|svg)$/, folder: /^(images?|photos?|pictures?|screenshots?|thumb(nail)?s?)$/ },
  // what a machine boots or installs from: an ISO, a raw or virtual disk
  { words: /\b((disk|iso|os|system|vm|virtual machine|boot(able)?|installer|install|sd ?card|usb) images?|isos?|\.iso|\.img|img files?)\b/, name: /\.(iso|img|qcow2|vmdk|vdi|vhdx?)$/, folder: /^(isos?|images?|vms?)$/ },
  // what a controller, a board or a device is flashed with
  { words: /\b((firmware|controller|fw|flash|rom|bios|board|device) images?|firmwares?|\.bin files?|bin files?)\b/, name: /\.(bin|hex|img|fw|rom|srec|dfu|uf2)$/, folder: /^(firmware|fw)$/ },
  { words: /\b(videos?|movies?|clips?|recordings?|footage)\b/, name: /\.(mp4|mkv|mov|avi|webm|m4v|wmv|flv|mpe?g)$/, folder: /^(videos?|movies?|recordings?)$/ },
  { words: /\b(archives?|zips?|tarballs?|compressed files?)\b/, name: /\.(zip|tar|gz|tgz|xz|bz2|7z|rar|zst)$/, folder: /^archives?$/ },
  { words: /\b(core ?dumps?|core files?|crash dumps?)\b/, name: /^core(\.\d+)?$|\.(dmp|core)$/, folder: /^(crash|cores?|dumps?)$/ },
  // reports are documents a program wrote out (a PDF, a spreadsheet, a page); by their own name
  // only, since a reports folder also keeps what makes them (templates, settings)
  { words: /\breports?\b/, name: /\.(pdf|csv|tsv|xlsx?|ods|docx?|odt|html?|txt|md|json|xml|rtf|pptx?)(\.(gz|bz2|xz|zst))?$|(^|[._-])reports?([._-]|\d|$)/, folder: /(?!)/, wordsOnly: true },
  { words: /\b(drafts?|rough copy|rough copies)\b/, name: /(^|[._ -])(drafts?|wip|rough)([._ -]|\d|$)/, folder: /^drafts?$/ },
  // what a test run leaves: files named for a test, a sample or a dummy run, said as such ("the
  // test export csvs", "test files"), not a real run's output beside them; everything in a
  // staging or sandbox place is such a run's
  { words: /\b(test|testing|dummy|sample) (exports?|files?|csvs?|outputs?|data|runs?|dumps?|batches?|uploads?|records?|rows?)\b/, name: /(^|[._ -])(tests?|testing|dummy|samples?|sandbox)([._ -]|\d|$)/, folder: /^(tests?|testing|samples?|sandbox|staging|stage|qa|uat)$/, wordsOnly: true },
  // what a build or a CI run leaves: object files, and whatever sits in an artifacts folder or is
  // named for a numbered build (build-101.zip)
  { words: /\b(object files?|(build|compiler|ci) (output|artifacts?|products?)|\.pyc|bytecode|compiled)\b/, name: /\.(o|obj|a|so|pyc|pyo|class)$|^build[-_.]\d+\b/, folder: /^(build|dist|out|target|__pycache__|obj|artifacts?)$/ },
];

/** A file name that calls it an audit trail (`audit.log`, `uplift-audit.log.2023`, `cmd_audit.log`). */
export const AUDIT_TRAIL = /(^|[^a-z])audit(s|[^a-z]|$)/;
/** A request that speaks of audits or audit trails. */
const AUDIT_WORD = /\baudit/i;

/** A clause that says what to spare, up to the end of its sentence or clause. */
const SPARED = /\b(leave|leaving)\b[^.;,]{0,60}?\b(alone|as (it is|they are)|untouched|in place)\b|\b(but |and )?not (the|my|any|its|their)\b[^.;,]*|\b(don'?t|do not|never|without) (touch|touching|delete|deleting|remove|removing)\b[^.;,]*|\bexcept( for)?\b[^.;,]*/gi;

/** A log pointed to as what tells the story ("see its log", "the log says"), not as what to delete. */
/** Where the request says the files are kept already ("they're in the crew system archive"), which names a place, not their kind. */
const KEPT_IN = /\b(are|is|were|was|'re|'s|sits?|live|lives|kept|stored|copied|moved|saved|verified) (\w+ ){0,2}(in|into|to|on|inside) (the |our |their |a |an )?([\w-]+ ){0,3}(archives?|backups?|caches?)\b/gi;

const EVIDENCE = /\b(see|check|checked|per|according to|look at|looked at|read|in) (its|the|their|his|her|my|our|this|that) (\w+ )?(logs?|log files?)\b|\b(its|the) (\w+ )?logs? (says?|said|shows?|showed|reports?)\b/gi;

/** A file's own name with its ending (`applied.log`, `price-2024.csv`); not a pattern (`*.log`), an ending alone (`.bak`) or a path. */
const NAMED_FILE = /(?<![\w*?.\/~-])[\w-]+\.[a-z][a-z0-9]{0,4}\b(?![\/.\w])/gi;

/** A request to empty a place whole. */
const EMPTY_WHOLE = /\b(empty|wipe|clear out|everything in|all of)\b/i;

/** Short words a request uses that are also file endings but say no format (the .old, .new, .all of a name). */
const COMMON_WORDS = new Set(['old', 'new', 'all', 'any', 'the', 'and', 'log', 'logs', 'tmp', 'bak', 'out', 'raw', 'run', 'data', 'file', 'files', 'dump', 'done', 'last', 'keep', 'only', 'from', 'with', 'into', 'over', 'test', 'temp', 'cache', 'spool', 'input', 'output', 'more', 'than', 'days']);

/**
 * The paths that are not of any kind the request names; empty when the request names no kind
 * (nothing to compare with). A path is of a kind by its own name or by a folder on its way.
 */
export function offKind(paths: readonly string[], request: string): string[] {
  // in a path the request gives, only a folder named for a kind names it (/var/tmp: temp files);
  // a compound name does not (/srv/tmp-uploads names no temp files)
  const given = /(^|\s)["'(]?[~.]*\/\S*/g;
  // what the request says to spare describes no file to delete ("leave the tmp folder alone",
  // "not the extracted package folders")
  request = request.replace(SPARED, ' ').replace(EVIDENCE, ' ').replace(KEPT_IN, ' ');
  // nor does a file the request names in passing ("it's in applied.log" names no logs to delete)
  const kindText = request.replace(NAMED_FILE, ' ');
  const ask = kindText.toLowerCase().replace(given, (path) => ` ${path.replace(/[,;:!?)"']+$/, '').split('/').filter((part) => /^[a-z0-9]+$/.test(part)).join(' ')} `);
  const said = kindText.toLowerCase().replace(given, ' ');
  const kinds = KINDS.filter((k) => k.words.test(k.wordsOnly ? said : ask));
  // a file the request names by its own name (".DS_Store files") is what it describes, whatever
  // kind another of its words names ("the client's zip")
  const words = new Set(request.toLowerCase().split(/[\s,;:!?"'()]+/).map((w) => w.replace(/\.+$/, '')));
  // and so is a file a name pattern of the request matches ("the c* and d* files"); an extension
  // alone is not (".raw scratch files" are scratch files, not the camera's .RAW originals)
  const patterns = [...words].filter((w) => /^[\w.-]*\*[\w.*-]*$/.test(w) && /\w/.test(w)).map((w) => new RegExp('^' + w.replace(/[.+^${}()|\\-]/g, '\\$&').replace(/\*/g, '.*') + '$'));
  // an ending the request gives as the files it means (".eml files") is a kind of its own; one
  // before another kind's word (".raw scratch files") only narrows that kind
  // (a list of them counts whole: ".orig and .rej files")
  // (so is one before a word that names no kind: "the .failed marker files")
  const endings = [...request.toLowerCase().matchAll(/((?:(?<![\w*])\.[a-z0-9]{1,6}(?:,\s*|\s+(?:and|or|&)\s+|\s*\/\s*))*(?<![\w*])\.[a-z0-9]{1,6}) (?:([a-z]{3,}) )?(files?|ones)\b/g)]
    .filter((m) => m[2] === undefined || !KINDS.some((k) => k.words.test(m[2]!)))
    .flatMap((m) => m[1]!.match(/\.[a-z0-9]{1,6}/g) ?? []);
  if (kinds.length === 0 && endings.length === 0) {
    // (or, with no kind named, a file format the request says as a word, which the endings of
    // some of the files spell: "GRIB input" for .grib2 beside a model's static .nc files)
    const ext = (p: string): string => /\.([a-z][a-z0-9]{1,5})$/.exec(p.toLowerCase())?.[1] ?? '';
    // (a request to empty a place whole describes what it thinks is there, and selects nothing:
    // "empty my trash, it's full of old apk builds")
    if (EMPTY_WHOLE.test(request)) return [];
    const format = (x: string, common = false): boolean => x.length >= 2 && [...words].some((w) => /^[a-z]{3,6}$/.test(w) && (common || !COMMON_WORDS.has(w)) && (x === w || (x.startsWith(w) && /^\d$/.test(x.slice(w.length)))));
    // (once one format is said, every ending the request lists counts: "aux, toc, out")
    const of = paths.filter((p) => format(ext(p)));
    return of.length > 0 ? paths.filter((p) => !format(ext(p), true)) : [];
  }
  return paths.filter((p) => {
    const parts = p.toLowerCase().split('/').filter(Boolean);
    const name = parts.pop() ?? '';
    if (name.length >= 3 && words.has(name)) return false;
    // an audit trail is a record kept for others to check, not one of the logs a request clears
    // to free space: only a request that speaks of audits describes it (cd-audit.log among the
    // ".log files")
    if (AUDIT_TRAIL.test(name) && !AUDIT_WORD.test(request)) return true;
    if (patterns.some((re) => re.test(name)) || endings.some((x) => name.endsWith(x))) return false;
    return !kinds.some((k) => k.name.test(name) || parts.some((d) => k.folder.test(d)));
  });
}

/**
 * Whether a name pattern (`core.[0-9]*`, `*.log`) describes files of a kind the request names
 * ("core dumps", "the logs"): a name made from the pattern, each class read as its first
 * character and each star as nothing, is of that kind by its name; or the pattern lies in a
 * folder named for the kind (`folder`, when given).
 */
export function patternOfNamedKind(pattern: string, request: string, folder?: string): boolean {
  const kinds = KINDS.filter((k) => k.words.test(request.replace(EVIDENCE, ' ').toLowerCase()));
  if (kinds.length === 0) return false;
  // (a pattern inside a folder named for a kind that goes by its folder is of it: dumps in
  // /backup/patrondb are backups; rotated copies in a log folder are not logs by that alone)
  if (folder !== undefined && kinds.some((k) => k.byFolder && folder.toLowerCase().split('/').some((d) => d !== '' && k.folder.test(d)))) return true;
  const sample = pattern
    .toLowerCase()
    .replace(/\[!?\^?([^\]])[^\]]*\]/g, (_, first: string) => first)
    .replace(/\*/g, '')
    .replace(/\?/g, 'x');
  return sample.length > 0 && kinds.some((k) => k.name.test(sample));
}
