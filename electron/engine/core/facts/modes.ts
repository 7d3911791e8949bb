/**
 * Reading chmod modes, numeric (755, 04755) or symbolic (u+s, o+w, a=rwx, +x), one mode word at
 * a time.
 */

function clauses(mode: string): { who: string; op: string; perms: string }[] {
  return mode.split(',').map((part) => {
    const m = /^([ugoa]*)([+=-])([rwxXstugo]*)$/.exec(part);
    return m ? { who: m[1]!, op: m[2]!, perms: m[3]! } : { who: '', op: '', perms: '' };
  });
}

/** Sets the setuid or setgid bit. */
export function grantsSetuid(mode: string): boolean {
  if (/^[0-7]+$/.test(mode)) return mode.length >= 4 && /[2-7]/.test(mode.slice(-4)[0]!);
  return clauses(mode).some((c) => c.op !== '-' && c.perms.includes('s') && (c.who === '' || /[uga]/.test(c.who)));
}

/** Sets the setgid bit but not the setuid bit (group sharing on a directory is its usual use). */
export function grantsOnlySetgid(mode: string): boolean {
  if (/^[0-7]+$/.test(mode)) return mode.length >= 4 && /^[23]$/.test(mode.slice(-4)[0]!);
  const cs = clauses(mode).filter((c) => c.op !== '-' && c.perms.includes('s'));
  return cs.length > 0 && cs.every((c) => /^g+$/.test(c.who));
}

/** Lets others write. Without an explicit o or a the umask decides, which keeps others out on usual systems. */
export function grantsWorldWrite(mode: string): boolean {
  if (/^[0-7]+$/.test(mode)) return /[2367]/.test(mode.slice(-1));
  return clauses(mode).some((c) => c.op !== '-' && /[oa]/.test(c.who) && c.perms.includes('w'));
}

/** Lets the file's group write. */
export function grantsGroupWrite(mode: string): boolean {
  if (/^[0-7]+$/.test(mode)) return mode.length >= 2 && /[2367]/.test(mode.slice(-2, -1));
  return clauses(mode).some((c) => c.op !== '-' && /[ga]/.test(c.who) && c.perms.includes('w'));
}

/** Only takes permissions away (`-x`, `go-rwx`): what it leaves can run no more than before. */
export function onlyTakesAway(mode: string): boolean {
  const cs = clauses(mode);
  return cs.length > 0 && cs.every((c) => c.op === '-' && c.perms !== '');
}

/** Lets others read. */
export function grantsWorldRead(mode: string): boolean {
  if (/^[0-7]+$/.test(mode)) return /[4-7]/.test(mode.slice(-1));
  return clauses(mode).some((c) => c.op !== '-' && /[oa]/.test(c.who) && c.perms.includes('r'));
}

/**
 * The permission bits a mode word leaves on an entry that had `old` (numeric: the word itself;
 * symbolic: each clause applied in turn, `X` counting for folders and for entries someone could
 * already run). The umask is not applied: `+r` with no class reads as `a+r`. Undefined for a word
 * that is neither.
 */
export function applyMode(old: number, mode: string, isDir: boolean): number | undefined {
  if (/^[0-7]{1,4}$/.test(mode)) return parseInt(mode, 8);
  let bits = old & 0o7777;
  for (const c of clauses(mode)) {
    if (!c.op) return undefined;
    const who = c.who === '' || c.who.includes('a') ? 'ugo' : c.who;
    let perm = 0;
    for (const p of c.perms) {
      if (p === 'r') perm |= 4;
      else if (p === 'w') perm |= 2;
      else if (p === 'x' || (p === 'X' && (isDir || (bits & 0o111) !== 0))) perm |= 1;
    }
    for (const w of who) {
      const shift = w === 'u' ? 6 : w === 'g' ? 3 : 0;
      const mask = 7 << shift;
      if (c.op === '+') bits |= perm << shift;
      else if (c.op === '-') bits &= ~(perm << shift);
      else bits = (bits & ~mask) | (perm << shift);
    }
  }
  return bits;
}
